#include "pacer/adaptive_config.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "pacer/decimal.hpp"
#include "pacer/pacer.hpp"

namespace pacer {

void validate(const AdaptiveConfig& c) {
  using detail::config_error;
  using detail::format_value;
  constexpr Nanos hour{3'600'000'000'000};
  const auto at_least = [](std::string_view field, std::int64_t value, std::int64_t least) {
    if (value < least)
      config_error(std::string{"AdaptiveConfig::"} + std::string{field}, ">= " + std::to_string(least),
                   format_value(value));
  };
  const auto within = [](std::string_view field, std::int64_t value, std::int64_t least, std::int64_t most) {
    if (value < least || value > most)
      config_error(std::string{"AdaptiveConfig::"} + std::string{field},
                   "in [" + std::to_string(least) + ", " + std::to_string(most) + "]", format_value(value));
  };
  const auto nanos = [&](std::string_view field, Nanos value, bool positive) {
    if (value < Nanos::zero() || (positive && value == Nanos::zero()) || value > hour)
      config_error(std::string{"AdaptiveConfig::"} + std::string{field},
                   positive ? "> 0 and at most an hour" : ">= 0 and at most an hour", format_value(value));
  };
  const auto real = [](std::string_view field, double value, bool ok, std::string_view rule) {
    if (!ok || !std::isfinite(value))
      config_error(std::string{"AdaptiveConfig::"} + std::string{field}, rule, format_value(value));
  };
  nanos("initial_interval", c.initial_interval, true);  // clamped to [min, max]
  nanos("min_interval", c.min_interval, true);
  nanos("max_interval", c.max_interval, true);
  if (c.max_interval < c.min_interval)
    config_error("AdaptiveConfig::max_interval", ">= min_interval (" + format_value(c.min_interval) + ")",
                 format_value(c.max_interval));
  real("widen_factor", c.widen_factor, c.widen_factor > 1.0, "> 1");
  at_least("shrink_window", c.shrink_window, 1);
  real("shrink_fraction", c.shrink_fraction, c.shrink_fraction > 0.0 && c.shrink_fraction <= 1.0, "in (0, 1]");
  at_least("hitch_frames", c.hitch_frames, 1);
  nanos("refresh_period", c.refresh_period, false);
  nanos("vblank_margin", c.vblank_margin, false);
  nanos("late_tolerance", c.late_tolerance, false);
  at_least("render_history", c.render_history, 1);
  at_least("pipeline_frames", c.pipeline_frames, 1);
  real("mixed_cadence_loss", c.mixed_cadence_loss, true, "finite");
  nanos("mixed_cadence_over", c.mixed_cadence_over, false);
  real("mixed_lead_percentile", c.mixed_lead_percentile,
       c.mixed_lead_percentile > 0.0 && c.mixed_lead_percentile <= 100.0, "in (0, 100]");
  real("mixed_lead_percentile_queued", c.mixed_lead_percentile_queued,
       c.mixed_lead_percentile_queued > 0.0 && c.mixed_lead_percentile_queued <= 100.0, "in (0, 100]");
  real("mixed_margin", c.mixed_margin, c.mixed_margin >= 1.0, ">= 1");
  at_least("deep_history", c.deep_history, 1);
  nanos("present_margin", c.present_margin, false);
  nanos("render_thread_margin", c.render_thread_margin, false);
  at_least("misses_to_widen", c.misses_to_widen, 1);
  real("shrink_percentile", c.shrink_percentile, c.shrink_percentile > 0.0 && c.shrink_percentile <= 100.0,
       "in (0, 100]");
  at_least("failed_shrink_frames", c.failed_shrink_frames, 0);
  at_least("max_backoff", c.max_backoff, 0);
  if (c.max_backoff > 20) config_error("AdaptiveConfig::max_backoff", "<= 20", format_value(std::int64_t{c.max_backoff}));
  real("spiral_ratio", c.spiral_ratio, c.spiral_ratio > 0.0, "> 0");
  real("catch_up", c.catch_up, true, "finite");
  at_least("estimate_outlier_after", c.estimate_outlier_after, 1);
  at_least("wake_history", c.wake_history, 1);
  at_least("post_work_history", c.post_work_history, 1);
  at_least("present_call_history", c.present_call_history, 1);
  at_least("miss_window", c.miss_window, 1);
  if (c.miss_window > 32) config_error("AdaptiveConfig::miss_window", "<= 32", format_value(std::int64_t{c.miss_window}));
  if (c.misses_to_widen > c.miss_window)
    config_error("AdaptiveConfig::misses_to_widen", "<= miss_window (" + format_value(std::int64_t{c.miss_window}) + ")",
                 format_value(std::int64_t{c.misses_to_widen}));
  if (c.pipeline_frames > 15)
    config_error("AdaptiveConfig::pipeline_frames", "<= 15", format_value(std::int64_t{c.pipeline_frames}));
  at_least("overload_window", c.overload_window, 2);
  nanos("min_shrink_step", c.min_shrink_step, false);
  nanos("spiral_window", c.spiral_window, true);
  real("keep_debt_catch_up", c.keep_debt_catch_up, c.keep_debt_catch_up > 0.0, "> 0");
  at_least("vblank_margin_residuals", c.vblank_margin_residuals, 0);
  real("mixed_follow", c.mixed_follow, c.mixed_follow >= 0.0, ">= 0");
  real("mixed_leave_share", c.mixed_leave_share, c.mixed_leave_share >= 0.0 && c.mixed_leave_share <= 1.0, "in [0, 1]");
  at_least("max_pushes", c.max_pushes, 0);
  real("push_gap_guard", c.push_gap_guard, c.push_gap_guard == 0.0 || c.push_gap_guard >= 1.0, "0 or >= 1");
  within("push_gap_window", c.push_gap_window, 1, 1024);
  nanos("max_lag", c.max_lag, false);
  nanos("max_pile_lag", c.max_pile_lag, false);
  nanos("stall_lag", c.stall_lag, false);
  at_least("stall_catch_up_frames", c.stall_catch_up_frames, 0);
  at_least("stall_catch_up_window", c.stall_catch_up_window, 0);
  at_least("stall_isolated_frames", c.stall_isolated_frames, 0);
  nanos("stall_run_lag", c.stall_run_lag, false);
  at_least("catch_up_p99_window", c.catch_up_p99_window, 100);
  at_least("catch_up_p99_frames", c.catch_up_p99_frames, 1);
  if (c.max_pile_lag > Nanos::zero() && c.max_pile_lag < c.max_lag)
    config_error("AdaptiveConfig::max_pile_lag", "0 or >= max_lag (" + format_value(c.max_lag) + ")", format_value(c.max_pile_lag));
  nanos("catch_up_within", c.catch_up_within, false);
  nanos("pile_catch_up_lag", c.pile_catch_up_lag, false);
  nanos("pile_catch_up_within", c.pile_catch_up_within, true);
  nanos("vrr_catch_up_within", c.vrr_catch_up_within, false);
  real("mixed_lead_deep_percentile", c.mixed_lead_deep_percentile,
       c.mixed_lead_deep_percentile >= 0.0 && c.mixed_lead_deep_percentile <= 100.0, "in [0, 100]");
  real("mixed_lead_floor_percentile", c.mixed_lead_floor_percentile,
       c.mixed_lead_floor_percentile >= 0.0 && c.mixed_lead_floor_percentile <= 100.0, "in [0, 100]");
  real("mixed_lead_ratio_queued", c.mixed_lead_ratio_queued, c.mixed_lead_ratio_queued == 0.0 || c.mixed_lead_ratio_queued >= 1.0,
       "0 or >= 1");
  real("shallow_pipeline", c.shallow_pipeline, c.shallow_pipeline >= 1.0 && c.shallow_pipeline <= 15.0, "in [1, 15]");
  nanos("catch_up_burst", c.catch_up_burst, false);
  real("catch_up_pile", c.catch_up_pile, c.catch_up_pile > 0.0 && c.catch_up_pile < 1.0, "in (0, 1)");
  real("catch_up_late", c.catch_up_late, c.catch_up_late > 0.0, "> 0");
  at_least("level_window", c.level_window, 0);
  at_least("estimate_hitch_memory", c.estimate_hitch_memory, 0);
  at_least("estimate_hitch_burst", c.estimate_hitch_burst, 0);
  real("estimate_hitch_ratio", c.estimate_hitch_ratio, c.estimate_hitch_ratio >= 1.0, ">= 1");
  if (c.level_window > c.shrink_window)
    config_error("AdaptiveConfig::level_window", "<= shrink_window (" + format_value(std::int64_t{c.shrink_window}) + ")",
                 format_value(std::int64_t{c.level_window}));
  nanos("vrr_max_period", c.vrr_max_period, false);
  real("vrr_margin", c.vrr_margin, c.vrr_margin >= 1.0, ">= 1");
  real("vrr_trim", c.vrr_trim, c.vrr_trim >= 0.0 && c.vrr_trim < 1.0, "in [0, 1)");
  real("vrr_noise_sigmas", c.vrr_noise_sigmas, c.vrr_noise_sigmas >= 0.0 && c.vrr_noise_sigmas <= 10.0, "in [0, 10]");
  real("vrr_median_error", c.vrr_median_error, c.vrr_median_error >= 1.0 && c.vrr_median_error <= 3.0, "in [1, 3]");
  real("vrr_lfc_follow", c.vrr_lfc_follow, c.vrr_lfc_follow >= 0.0, ">= 0");
  real("vrr_catch_up", c.vrr_catch_up, c.vrr_catch_up >= 0.0 && c.vrr_catch_up <= 1.0, "in [0, 1]");
  nanos("vrr_pile_keep", c.vrr_pile_keep, false);
  real("vrr_pile_keep_pace", c.vrr_pile_keep_pace, c.vrr_pile_keep_pace > 0.0 && c.vrr_pile_keep_pace <= 1.0,
       "in (0, 1]");
  real("vrr_catch_up_cap", c.vrr_catch_up_cap, c.vrr_catch_up_cap >= 0.0 && c.vrr_catch_up_cap <= 100.0, "in [0, 100]");
  real("vrr_lead_percentile", c.vrr_lead_percentile, c.vrr_lead_percentile > 0.0 && c.vrr_lead_percentile <= 100.0,
       "in (0, 100]");
  real("vrr_hold_budget", c.vrr_hold_budget, c.vrr_hold_budget >= 0.0 && c.vrr_hold_budget < 1.0, "in [0, 1)");
  real("vrr_hold_bank", c.vrr_hold_bank, c.vrr_hold_bank >= 0.0 && c.vrr_hold_bank <= 10000.0, "in [0, 10000]");
  real("vrr_predict_gain", c.vrr_predict_gain, c.vrr_predict_gain >= 0.0 && c.vrr_predict_gain <= 2.0, "in [0, 2]");
  real("mixed_predict_gain_queued", c.mixed_predict_gain_queued,
       c.mixed_predict_gain_queued >= 0.0 && c.mixed_predict_gain_queued <= 4.0, "in [0, 4]");
  real("vrr_predict_clamp", c.vrr_predict_clamp, c.vrr_predict_clamp >= 0.0 && c.vrr_predict_clamp <= 1.0, "in [0, 1]");
  at_least("vrr_refollow_frames", c.vrr_refollow_frames, 0);
  within("vrr_predict_window", c.vrr_predict_window, 16, 4096);
  real("vrr_refollow_share", c.vrr_refollow_share, c.vrr_refollow_share > 0.0 && c.vrr_refollow_share <= 1.0, "in (0, 1]");
  real("vrr_ceiling_lead", c.vrr_ceiling_lead, c.vrr_ceiling_lead >= 0.0 && c.vrr_ceiling_lead <= 15.0, "in [0, 15]");
  real("mixed_hold_budget", c.mixed_hold_budget, c.mixed_hold_budget >= 0.0 && c.mixed_hold_budget < 1.0, "in [0, 1)");
}

bool set_knob(AdaptiveConfig& c, std::string_view name, double v) {
  if (!std::isfinite(v)) return false;
  // Clamped into each type's range before the cast (a cast out of range is undefined):
  // validate() then refuses the value by the field's own rule.
  const auto ms = [v] { return from_ms(std::clamp(v, -1e12, 1e12)); };
  const auto i32 = [v] { return static_cast<int>(std::clamp(v, -2e9, 2e9)); };
  const auto i64 = [v] { return static_cast<std::int64_t>(std::clamp(v, -9e18, 9e18)); };
  if (name == "catch_up") c.catch_up = v;
  else if (name == "widen_factor") c.widen_factor = v;
  else if (name == "shrink_percentile") c.shrink_percentile = v;
  else if (name == "mixed_cadence_loss") c.mixed_cadence_loss = v;
  else if (name == "mixed_cadence_over_ms") c.mixed_cadence_over = ms();
  else if (name == "mixed_margin") c.mixed_margin = v;
  else if (name == "misses_to_widen") c.misses_to_widen = i32();
  else if (name == "hitch_frames") c.hitch_frames = i32();
  else if (name == "pipeline_frames") c.pipeline_frames = i32();
  else if (name == "shallow_after") c.shallow_after = i64();
  else if (name == "shallow_pipeline") c.shallow_pipeline = v;
  else if (name == "shrink_window") c.shrink_window = i32();
  else if (name == "present_margin_ms") c.present_margin = ms();
  else if (name == "max_lag_ms") c.max_lag = ms();
  else if (name == "max_pile_lag_ms") c.max_pile_lag = ms();
  else if (name == "stall_lag_ms") c.stall_lag = ms();
  else if (name == "stall_catch_up_frames") c.stall_catch_up_frames = i32();
  else if (name == "stall_catch_up_window") c.stall_catch_up_window = i32();
  else if (name == "stall_isolated_frames") c.stall_isolated_frames = i32();
  else if (name == "step_cap_keeps_lag") c.step_cap_keeps_lag = v != 0;
  else if (name == "stall_run_lag_ms") c.stall_run_lag = ms();
  else if (name == "catch_up_p99") c.catch_up_p99 = v != 0;
  else if (name == "catch_up_p99_frames") c.catch_up_p99_frames = i32();
  else if (name == "catch_up_p99_window") c.catch_up_p99_window = i32();
  else if (name == "mixed_follow") c.mixed_follow = v;
  else if (name == "mixed_lead_percentile_queued") c.mixed_lead_percentile_queued = v;
  else if (name == "mixed_lead_deep_percentile") c.mixed_lead_deep_percentile = v;
  else if (name == "mixed_lead_ratio_queued") c.mixed_lead_ratio_queued = v;
  else if (name == "mixed_lead_floor_percentile") c.mixed_lead_floor_percentile = v;
  else if (name == "min_interval_ms") c.min_interval = std::max(c.min_interval, ms());
  else if (name == "mixed_lead_percentile") c.mixed_lead_percentile = v;
  else if (name == "catch_up_within_ms") c.catch_up_within = ms();
  else if (name == "pile_catch_up_lag_ms") c.pile_catch_up_lag = ms();
  else if (name == "pile_catch_up_within_ms") c.pile_catch_up_within = ms();
  else if (name == "vrr_catch_up_within_ms") c.vrr_catch_up_within = ms();
  else if (name == "catch_up_paced") c.catch_up_paced = v != 0;
  else if (name == "widen_counts_updates") c.widen_counts_updates = v != 0;
  else if (name == "catch_up_burst_ms") c.catch_up_burst = ms();
  else if (name == "level_window") c.level_window = i32();
  else if (name == "estimate_hitch_memory") c.estimate_hitch_memory = i32();
  else if (name == "estimate_hitch_ratio") c.estimate_hitch_ratio = v;
  else if (name == "estimate_hitch_burst") c.estimate_hitch_burst = i32();
  else if (name == "push_gap_guard") c.push_gap_guard = v;
  else if (name == "vrr_margin") c.vrr_margin = v;
  else if (name == "vrr_trim") c.vrr_trim = v;
  else if (name == "vrr_noise_sigmas") c.vrr_noise_sigmas = v;
  else if (name == "vrr_median_error") c.vrr_median_error = v;
  else if (name == "vrr_hold_bank") c.vrr_hold_bank = v;
  else if (name == "vrr_predict_gain") c.vrr_predict_gain = v;
  else if (name == "mixed_predict_gain_queued") c.mixed_predict_gain_queued = v;
  else if (name == "vrr_predict_window") c.vrr_predict_window = i32();
  else if (name == "vrr_predict_clamp") c.vrr_predict_clamp = v;
  else if (name == "vrr_predict_on_immediate") c.vrr_predict_on_immediate = v != 0;
  else if (name == "vrr_lfc_follow") c.vrr_lfc_follow = v;
  else if (name == "vrr_catch_up") c.vrr_catch_up = v;
  else if (name == "vrr_pile_keep_pace") c.vrr_pile_keep_pace = v;
  else if (name == "vrr_catch_up_cap") c.vrr_catch_up_cap = v;
  else if (name == "vrr_pile_keep_ms") c.vrr_pile_keep = ms();
  else if (name == "vrr_lead_percentile") c.vrr_lead_percentile = v;
  else if (name == "vrr_hold_budget") c.vrr_hold_budget = v;
  else if (name == "vrr_hold_below_range") c.vrr_hold_below_range = v != 0;
  else if (name == "mixed_hold_budget") c.mixed_hold_budget = v;
  else if (name == "render_history") c.render_history = i32();
  else if (name == "deep_history") c.deep_history = i32();
  else if (name == "overload_window") c.overload_window = i32();
  else if (name == "vrr_snap_ceiling") c.vrr_snap_ceiling = v != 0;
  else if (name == "busy_counts_gpu") c.busy_counts_gpu = v != 0;
  else if (name == "gpu_queue_plan") c.gpu_queue_plan = v != 0;
  else if (name == "vrr_ceiling_lead") c.vrr_ceiling_lead = v;
  else if (name == "vrr_refollow_frames") c.vrr_refollow_frames = i32();
  else if (name == "vrr_refollow_share") c.vrr_refollow_share = v;
  else if (name == "mixed_lead_cap_immediate") c.mixed_lead_cap_immediate = v != 0;
  else if (name == "late_floor_in_flight") c.late_floor_in_flight = v != 0;
  else if (name == "mixed_leave_share") c.mixed_leave_share = v;
  else if (name == "max_pushes") c.max_pushes = i32();
  else if (name == "estimate_outlier_after") c.estimate_outlier_after = i32();
  else if (name == "failed_shrink_frames") c.failed_shrink_frames = i32();
  else if (name == "max_backoff") c.max_backoff = i32();
  else if (name == "vblank_margin_residuals") c.vblank_margin_residuals = i32();
  else if (name == "present_call_lead") c.present_call_lead = v != 0;
  else if (name == "initial_interval_ms") c.initial_interval = ms();
  else if (name == "max_interval_ms") c.max_interval = ms();
  else if (name == "shrink") c.shrink = v != 0;
  else if (name == "shrink_fraction") c.shrink_fraction = v;
  else if (name == "display_aware") c.display_aware = v != 0;
  else if (name == "vblank_margin_ms") c.vblank_margin = ms();
  else if (name == "late_tolerance_ms") c.late_tolerance = ms();
  else if (name == "render_thread_margin_ms") c.render_thread_margin = ms();
  else if (name == "spiral_ratio") c.spiral_ratio = v;
  else if (name == "spiral_window_ms") c.spiral_window = ms();
  else if (name == "catch_up_pile") c.catch_up_pile = v;
  else if (name == "catch_up_late") c.catch_up_late = v;
  else if (name == "keep_debt_catch_up") c.keep_debt_catch_up = v;
  else if (name == "wake_history") c.wake_history = i32();
  else if (name == "post_work_history") c.post_work_history = i32();
  else if (name == "present_call_history") c.present_call_history = i32();
  else if (name == "miss_window") c.miss_window = i32();
  else if (name == "min_shrink_step_ms") c.min_shrink_step = ms();
  else if (name == "push_gap_window") c.push_gap_window = i32();
  else return false;
  return true;
}

bool set_knob(AdaptiveConfig& c, std::string_view setting) {
  const auto eq = setting.find('=');
  if (eq == std::string_view::npos) return false;
  const std::optional<double> value = parse_decimal(setting.substr(eq + 1));
  return value && set_knob(c, setting.substr(0, eq), *value);
}

}  // namespace pacer
