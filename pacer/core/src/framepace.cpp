// The `framepace` policy: bevy_framepace's limiter. Sources (github aevyrie/bevy_framepace):
// src/lib.rs at commit d548dbf (v0.22, Bevy 0.19): framerate_limiter, detect_frametime,
// FrameTimer, FramePaceStats; and for forward_estimate, src/lib.rs at commit e18a31b
// (2022-02-20): framerate_limit_forward_estimator, framerate_exact_limiter.
// docs/pacing.md ("Peers") lists what is taken and what is left out.
#include "pacer/framepace.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace pacer {

Nanos framepace_auto_limit(Nanos refresh_period) {
  // detect_frametime: winit reports the monitor's refresh in whole millihertz;
  // best_framerate = mHz / 1000 - 0.5; the limit is 1 / best_framerate.
  if (refresh_period <= Nanos::zero()) return Nanos::zero();
  const double millihertz = std::round(1e12 / static_cast<double>(refresh_period.count()));
  const double best_framerate = millihertz / 1000.0 - 0.5;
  if (!(best_framerate > 0)) return Nanos::zero();
  return Nanos{std::llround(1e9 / best_framerate)};
}

void validate(const FramepaceConfig& c) {
  using detail::config_error;
  using detail::format_value;
  constexpr Nanos hour{3'600'000'000'000};
  if (c.frametime_limit < Nanos::zero() || c.frametime_limit > hour)
    config_error("FramepaceConfig::frametime_limit", ">= 0 and at most an hour", format_value(c.frametime_limit));
  if (c.safety_margin < Nanos::zero() || c.safety_margin > hour)
    config_error("FramepaceConfig::safety_margin", ">= 0 and at most an hour", format_value(c.safety_margin));
}

namespace {
const FramepaceConfig& checked(const FramepaceConfig& config, const FixedStepConfig& sim) {
  validate(sim);
  validate(config);
  return config;
}
}  // namespace

FramepacePolicy::FramepacePolicy(FramepaceConfig config, FixedStepConfig sim)
    : Pacer{policy_name}, config_{checked(config, sim)}, step_{sim} {}

FramePlan FramepacePolicy::on_begin_frame(Nanos now) {
  if (!started_) {
    // FrameTimer::default(): sleep_end = Instant::now() when the plugin is built.
    started_ = true;
    step_.start(now);
    sleep_end_ = post_render_start_ = render_start_ = now;
  }
  FramePlan plan;
  plan.planned_start = now;
  step_.fill(plan);
  return plan;
}

void FramepacePolicy::on_end_render(Nanos) { phase_ = Phase::sleep; }

Nanos FramepacePolicy::sleep_deadline(Nanos now) {
  const Nanos limit = config_.frametime_limit;
  if (!config_.forward_estimate) {
    // framerate_limiter (RenderSystems::Cleanup, after the present): frame_time =
    // sleep_end.elapsed(); sleep_time = limit.saturating_sub(frame_time + oversleep);
    // spin_sleep::sleep(sleep_time) when the limiter is enabled.
    frametime_ = now - sleep_end_;
    const Nanos sleep = std::max(Nanos::zero(), limit - (frametime_ + oversleep_));
    return limit > Nanos::zero() ? now + sleep : now;
  }
  // framerate_limit_forward_estimator (RenderStage::Cleanup, commit e18a31b): the frame's
  // work is the time since the last forward sleep less the exact limiter's sleep; the
  // estimate is mean + 3 sigma of the last FRAMETIME_SAMPLES (64) of them (the sum is
  // divided by 64 even before 64 are in) plus the safety margin; sleep what the target
  // leaves of it.
  const Nanos last_frametime = now - post_render_start_;
  const Nanos work = last_frametime - std::min(exact_sleep_, last_frametime);
  history_[history_next_] = work;
  history_next_ = (history_next_ + 1) % samples;
  history_size_ = std::min(history_size_ + 1, samples);
  Nanos sum{0};
  for (std::size_t i = 0; i < history_size_; ++i) sum += history_[i];
  const Nanos mu = sum / static_cast<std::int64_t>(samples);
  double sum_squares = 0;
  for (std::size_t i = 0; i < history_size_; ++i) {
    const double d = static_cast<double>((history_[i] - mu).count()) / 1e9;
    sum_squares += d * d;
  }
  const double sigma = std::sqrt(sum_squares / static_cast<double>(samples));
  frametime_ = work;
  estimate_ = mu + Nanos{std::llround(3.0 * sigma * 1e9)} + config_.safety_margin;
  const Nanos sleep = limit - std::min(estimate_, limit);
  return limit > Nanos::zero() ? now + sleep : now;
}

void FramepacePolicy::after_sleep(Nanos now) {
  if (!config_.forward_estimate) {
    // frame_time_total = sleep_end.elapsed(); sleep_end = now;
    // oversleep = frame_time_total.saturating_sub(limit).
    const Nanos total = now - sleep_end_;
    sleep_end_ = now;
    oversleep_ = std::max(Nanos::zero(), total - config_.frametime_limit);
    return;
  }
  post_render_start_ = now;
}

Action FramepacePolicy::on_next(Nanos now) {
  if (phase_ == Phase::sleep) {
    const Nanos until = sleep_deadline(now);
    phase_ = Phase::woke;
    if (until > now) return Action{ActionKind::wait, Nanos::zero(), until};
  }
  if (phase_ == Phase::woke) {
    after_sleep(now);
    // The next frame: Bevy's main schedule reads the time and runs the fixed-step updates.
    note(step_.read(now));
    phase_ = Phase::update;
  }
  if (phase_ == Phase::update) {
    detail::PeerNote n;
    const auto step = step_.step(n);
    note(n);
    if (step) return Action{ActionKind::update, *step, Nanos::zero()};
    if (!config_.forward_estimate) {
      phase_ = Phase::done;
      return Action{ActionKind::render, Nanos::zero(), Nanos::zero()};
    }
    phase_ = Phase::exact;
  }
  if (phase_ == Phase::exact) {
    // framerate_exact_limiter (RenderStage::Render, commit e18a31b): sleep what is left of
    // the target since the last render started, less the safety margin.
    exact_from_ = now;
    const Nanos limit = config_.frametime_limit;
    Nanos sleep = limit - std::min(now - render_start_, limit);
    sleep -= std::min(sleep, config_.safety_margin);
    phase_ = Phase::exact_woke;
    if (limit > Nanos::zero() && sleep > Nanos::zero()) return Action{ActionKind::wait, Nanos::zero(), now + sleep};
  }
  if (phase_ == Phase::exact_woke) {
    render_start_ = now;
    exact_sleep_ = now - exact_from_;
    phase_ = Phase::done;
  }
  return Action{ActionKind::render, Nanos::zero(), Nanos::zero()};
}

void FramepacePolicy::note(const detail::PeerNote& n) {
  if (n.events != event_none) note_event(n.events);
  if (n.dropped > Nanos::zero()) note_dropped(n.dropped);
}

}  // namespace pacer
