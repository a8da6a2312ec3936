// pacer/adaptive.hpp - the adaptive render interval (docs/pacing.md).
//
// Render at the start of each interval. When the frame so far (render, then
// each update) took longer than the interval, widen it to widen_factor x that
// time, moving the frame end. Update until the simulation is just past the
// frame end, wait for the frame end, then render the world at the frame end:
// alpha = (frame_end - previous) / (current - previous), in (0, 1].
// With sustained headroom the interval shrinks slowly; a one-off hitch is
// forgiven after a few frames that fit the old interval.
//
// Display-aware mode (on by default once the display is known: a refresh period
// in the config, or the first observe_display() call): each frame gets a planned
// display time on the vblank grid (whole refresh periods on fixed-refresh
// displays), the world is rendered for that time, the present is held until it
// (FramePlan::present_at), an overrun is a frame that misses its planned display
// (pipelined: a frame may start late and still make it; on FIFO frames start two
// intervals ahead), one miss is a hitch (re-plan, no widening; the world keeps the
// late frame's lag instead of jumping), consecutive misses or a mean overload widen,
// shrinking is one period at a time on the busy-time p95 with a margin and backs off
// after a failed try, whole periods give way to a mixed cadence when they would cost
// over 10% of the rate below 50 fps, and updates that cost more than they simulate get
// a time budget (spiral guard). docs/pacing.md has every rule.
//
//   pacer::AdaptiveConfig cfg;              // every constant has a documented default
//   cfg.initial_interval = 16ms;
//   cfg.refresh_period = 16'666'667ns;      // a 60 Hz FIFO swapchain; 0 = unknown
//   cfg.pipeline_frames = 2;                // swapchain images - 1 (pacer::fit_to_display)
//   pacer::AdaptivePolicy pacer{cfg, {}};   // FixedStepConfig{} = 1/64 s steps, cap 8
//   auto plan = pacer.begin_frame(0ns);     // then the protocol of pacer/pacer.hpp;
//   // hold the present until plan.present_at when it is >= 0, and feed display
//   // times back with pacer.observe_display(frame, shown).
#pragma once

#include <array>
#include <vector>

#include "pacer/pacer.hpp"
#include "pacer/vblank_grid.hpp"

namespace pacer {

struct AdaptiveConfig {
  /// The interval the first frame is planned with: 1/60 s ("a nice high starting interval").
  Nanos initial_interval{16'666'667};
  /// Frame-rate cap: the interval never shrinks below this (240 fps).
  Nanos min_interval{4'166'667};
  /// Frame-rate floor: the interval never widens past this (10 fps).
  Nanos max_interval{100'000'000};
  /// On overrun the interval becomes widen_factor x the time the frame has taken so far.
  double widen_factor = 1.2;
  /// false holds the interval (it still widens on overrun): --no-shrink.
  bool shrink = true;
  /// Headroom must last this many frames without an interval change before a shrink,
  /// and the shrink target is judged on the busiest of the last this-many frames.
  int shrink_window = 30;
  /// Each shrink moves the interval this fraction of the way to its target
  /// (widen_factor x the busiest recent frame), so shrinking is slow and geometric.
  double shrink_fraction = 0.5;
  /// After a widen, if most of this many following frames would have fit the old interval
  /// (their render plus the updates the old interval needs, x widen_factor <= old
  /// interval), the widen was a one-off hitch: restore the old interval at once. With 3,
  /// one straggler after the hitch is forgiven; two mean a lasting change.
  int hitch_frames = 3;

  // ---- display-aware mode (docs/pacing.md, "Displays, quantization, planned presents")
  /// false keeps the seed's display-blind loop above whatever the display is.
  bool display_aware = true;
  /// Refresh period of a fixed-refresh display (FIFO, mailbox): intervals become whole
  /// periods on the vblank grid. 0: unknown or free (immediate, VRR); the mode then
  /// starts at the first observe_display() and plans free intervals.
  Nanos refresh_period{0};
  /// A vblank time: the grid is vblank_phase + k x refresh_period. Replaced by the
  /// first observed display time; on a latching display the grid then locks its phase
  /// and period to every observed display time (pacer/vblank_grid.hpp).
  Nanos vblank_phase{0};
  /// true: a present is shown at the first vblank at or after it (FIFO, mailbox), so a
  /// held present waits for the vblank before its planned one. false: it is shown when
  /// made (immediate on a monitor of refresh_period), so it is held until its planned
  /// display time itself and frames start a render estimate ahead of it.
  bool vblank_latch = true;
  /// A held present goes out this long after the vblank before its planned one (at
  /// least, and more when the observed vblanks scatter: 4 x their mean residual), never
  /// more than a quarter period: a present right on the vblank may latch to it.
  Nanos vblank_margin{50'000};
  /// A frame counts as late only past this tolerance (at least), or past the waiter's
  /// measured wake error (the second-worst of the last 32 wakes, plus this): a wake a few
  /// microseconds late is not a miss.
  Nanos late_tolerance{20'000};
  /// Render-time estimate = the longest of this many recent renders (+ present_margin):
  /// how long before its planned display a frame starts.
  int render_history = 32;
  /// Fixed refresh: each frame starts at least this many intervals before its planned
  /// display (a swapchain of N images lets N - 1 frames queue): a frame that runs long
  /// uses the slack of the queue instead of missing its vblank, as a blocking FIFO loop
  /// does; the cost is this many intervals of latency. 1: start one interval ahead.
  int pipeline_frames = 2;
  /// ... but only until this many frames in a row have rendered within one interval (none
  /// needed the depth, none missed); then one interval ahead (a period less latency) until
  /// the next frame that needs it. <= 0: always pipeline_frames.
  std::int64_t shallow_after = 600;
  /// Presents queue in order, one per vblank (FIFO): a frame planned one period after the
  /// previous one is presented at once (the queue holds it). false (mailbox, where a newer
  /// present replaces a queued one): every present is held until its planned vblank.
  bool queued_presents = true;
  /// Mixed cadence: when whole refresh periods would cost more than this share of the
  /// frame rate the loop sustains (its mean busy time x mixed_margin, at least one
  /// period), each frame is shown at the first vblank it can make after the previous one
  /// (judged with a typical render, the p75 of render_history), with the world of that
  /// vblank: frames alternate between n and n + 1 periods (no animation error) at the
  /// rate the costs allow, and the interval reports that free time. On a free display it
  /// is the interval itself. <= 0 or >= 1: whole periods always (Swappy's choice: steady,
  /// at up to half the rate).
  double mixed_cadence_loss = 0.1;
  /// ... and only while whole periods would be longer than this (below 50 fps): above it
  /// an even cadence is worth more than the frames a mixed one adds.
  Nanos mixed_cadence_over{20'000'000};
  /// The mixed cadence's interval: mean busy time x this (the queue absorbs the variance).
  double mixed_margin = 1.07;
  /// Free displays (immediate, VRR): frames start this deep render estimate ahead of their
  /// present (the second-longest of this many recent renders + present_margin), so a rare
  /// long render seen in that history still makes its planned present.
  int deep_history = 128;
  /// Added to the render estimate: the waiter's wake error and clock noise.
  Nanos present_margin{250'000};
  /// This many frames among the last 4 that miss their planned display are a lasting
  /// change (widen); fewer are a hitch (re-plan at the next slot, keep the interval).
  int misses_to_widen = 3;
  /// Shrink when the p-th percentile of recent busy times x widen_factor fits the
  /// shorter interval.
  double shrink_percentile = 95;
  /// A widen within this many frames after a shrink marks the shrink as failed: the
  /// frames required before the next shrink double (up to 2^max_backoff x shrink_window).
  int failed_shrink_frames = 60;
  int max_backoff = 4;
  /// Spiral guard: when updates cost at least this share of the time they simulate,
  /// the updates of a frame get the time left before the next frame's start (at least
  /// one update) and the rest is debt (dropped or kept per FixedStepConfig::debt).
  double spiral_ratio = 0.9;
  /// A frame shown later than planned showed an older world than its display time. The
  /// frames after it continue from it (their animation advances by the display gap, so
  /// the late frame costs one error, not a freeze then a jump), and the world catches up
  /// by at most this fraction of the interval per frame. <= 0 with discard debt: the lag
  /// is dropped at once as debt (the world pauses through the hitch); with keep debt the
  /// lag is always caught up, at 0.25 when this is <= 0.
  double catch_up = 0;
};

/// Throws std::invalid_argument naming the field and its value for a config no policy can
/// run: intervals <= 0 or over an hour, max_interval < min_interval, widen_factor <= 1,
/// shrink_fraction outside (0, 1], windows and histories < 1, shrink_percentile outside
/// (0, 100], max_backoff outside [0, 20], non-finite factors, negative margins. The
/// initial interval only has to be > 0: it is clamped to [min_interval, max_interval]
/// (fit_to_display raises min_interval to a slow VRR panel's period).
void validate(const AdaptiveConfig& config);

/// The seed's loop (docs/background.md, section 1) as a pacer policy, display-aware once the
/// display is known (see the header comment).
class AdaptivePolicy final : public Pacer {
 public:
  static constexpr std::string_view policy_name = "adaptive";

  /// The seed's loop kept for comparison: display_aware off, named "adaptive-literal".
  static constexpr std::string_view literal_name = "adaptive-literal";

  /// `name` is the policy name in records and logs (a string literal or other static string).
  /// Throws std::invalid_argument for a config validate() refuses (either part).
  AdaptivePolicy(AdaptiveConfig config, FixedStepConfig sim, std::string_view name = policy_name);

  Nanos interval() const override { return interval_; }
  TimeAccount account() const override;
  const FixedStepClock& clock() const override { return clock_; }
  const AdaptiveConfig& config() const { return config_; }

 protected:
  FramePlan on_begin_frame(Nanos now) override;
  void on_end_render(Nanos now) override;
  Action on_next(Nanos now) override;
  void on_end_update(Nanos now) override;
  void on_observe_display(std::int64_t frame, Nanos display) override;
  void on_observe_wake(Nanos deadline, Nanos woke) override;
  void on_present_call(Nanos call) override;
  Nanos frame_interval() const override { return smooth_ ? planned_gap_ : interval_; }

 public:
  /// True once the display-aware mode runs (from the first frame with a refresh period).
  bool display_mode() const { return smooth_; }
  /// Planned display time of the current frame (display-aware mode).
  Nanos planned_display() const { return display_cur_; }
  /// Current render-time estimate (longest recent render + margin).
  Nanos render_estimate() const { return lead_; }
  /// How far the world shown lags its display time after late frames (caught up per catch_up).
  Nanos lag() const { return lag_; }
  /// True while the mixed cadence runs (a free interval on a fixed-refresh display).
  bool mixed_cadence() const { return mixed_; }
  /// Failed shrinks so far (each doubles the wait before the next try, up to max_backoff).
  int backoff() const { return backoff_; }
  /// The vblank grid in use (phase and period, locked to observed displays).
  const VblankGrid& grid() const { return grid_; }
  /// How late a frame may be without counting as late (see AdaptiveConfig::late_tolerance).
  Nanos lateness_tolerance() const;

 private:
  // Display-aware mode.
  FramePlan smooth_begin(Nanos now);
  Action smooth_next(Nanos now);
  void smooth_after_frame();
  void absorb_lag(Nanos shown);
  /// Chooses between whole periods and the mixed cadence; true when the mixed cadence runs.
  bool choose_cadence();
  /// Mean of the last n busy times without the longest (a hitch among them).
  Nanos recent_busy_mean(std::size_t n) const;
  /// The mixed cadence's interval for a mean busy time.
  Nanos free_interval(Nanos mean_busy) const;
  /// Whether the mixed cadence beats whole periods `even` with the free interval `free`.
  bool prefer_mixed(Nanos even, Nanos free) const;
  Nanos quantize_up(Nanos interval) const;
  Nanos grid_at_or_after(Nanos t) const;
  /// The vblank a grid-derived time (a vblank plus whole periods) stands for.
  Nanos grid_snap(Nanos t) const;
  /// The period changed with the lock: the interval keeps its whole number of periods.
  void follow_grid();
  bool latched() const { return period_ > Nanos::zero() && config_.vblank_latch; }
  /// Frames are planned on the vblank grid: a fixed refresh, except the mixed cadence on a
  /// display that shows presents when made (immediate:HZ), which runs free as on a free
  /// display (a held present there would cost a whole extra period per long frame).
  bool on_grid() const { return period_ > Nanos::zero() && (config_.vblank_latch || !mixed_); }
  Nanos start_lead() const;
  /// Fixed refresh: how far ahead of its display a frame starts, `depth` intervals deep.
  Nanos fixed_lead(int depth) const;
  Nanos percentile_busy(double p) const;
  void smooth_set_interval(Nanos interval, unsigned event);

  bool smooth_ = false;
  bool display_seen_ = false;
  Nanos period_{0};
  VblankGrid grid_;
  Nanos planned_gap_{0};     ///< the current frame's planned display less the previous frame's
  std::vector<Nanos> wakes_;  ///< recent wake errors (>= 0)
  std::size_t wakes_next_ = 0;
  Nanos wake_tolerance_{0};
  std::vector<Nanos> post_work_;  ///< recent present call + updates of a frame
  std::size_t post_next_ = 0;
  Nanos post_lead_{0};
  Nanos present_call_{0};         ///< the current frame's present call
  Nanos display_cur_{0};     ///< planned display of the current frame
  Nanos display_next_{0};    ///< planned display of the next frame (the world target)
  Nanos start_next_{0};      ///< planned start of the next frame
  bool planned_next_ = false;
  bool missed_ = false;      ///< the current frame missed its planned display
  Nanos observed_late_ = Nanos::min();  ///< the current frame's display, when reported later than planned
  unsigned miss_history_ = 0;       ///< bit i: the frame i frames ago missed
  Nanos render_end_{0};
  Nanos lead_{0};
  std::vector<Nanos> renders_;
  std::size_t renders_next_ = 0;
  std::vector<Nanos> deep_renders_;
  std::size_t deep_next_ = 0;
  Nanos deep_lead_{0};
  std::vector<Nanos> sorted_renders_, sorted_deep_;  ///< scratch for the estimates (kept: no allocation per frame)
  Nanos typical_lead_{0};
  std::vector<Nanos> busy_ring_;
  std::size_t busy_next_ = 0;
  std::vector<Nanos> missed_busy_;  ///< busy times of the current run of misses
  int backoff_ = 0;
  std::int64_t last_shrink_frame_ = -1'000'000;
  Nanos update_cost_sum_{0};        ///< spiral detection: recent update CPU time ...
  Nanos update_sim_sum_{0};         ///< ... against the simulation time it covered
  bool spiral_ = false;
  bool pushed_ = false;             ///< the next frame's display was pushed a slot later
  int pushes_ = 0;
  bool waited_ = false;
  std::array<Nanos, 8> planned_{};                 ///< planned display by frame % 8
  std::array<std::int64_t, 8> planned_frame_{-1, -1, -1, -1, -1, -1, -1, -1};
  Nanos late_floor_{0};             ///< no frame planned before this (displays seen late)             ///< the loop waited for the next start this frame
  Nanos update_started_{0};
  Nanos frame_update_cost_{0};      ///< CPU time of this frame's updates
  Nanos lag_{0};                    ///< the world shown runs this far behind the display (late frames)
  bool mixed_ = false;              ///< mixed cadence: frames at the first vblank they can make
  Nanos shown_prev_{0};
  std::int64_t last_deep_frame_ = 0;  ///< the last frame that needed pipeline_frames (or missed)             ///< when the previous frame is (expected to be) shown

 private:
  void widen_if_overrun(Nanos now);
  void set_interval(Nanos interval);
  void consider_shrink(Nanos busy, Nanos cost_at_pre_hitch);
  Nanos cost_at(Nanos interval) const;
  /// alpha and animation time of the plan: the world at the frame's target time.
  void show_world_target(FramePlan& plan) const;
  void clamp_stall();
  void hit_step_cap();
  void measure_busy(Nanos now);
  /// The world time the current frame must show: frame end less the dropped debt.
  Nanos world_target() const { return frame_end_ - clock_.dropped() - lag_; }

  AdaptiveConfig config_;
  FixedStepConfig sim_;
  FixedStepClock clock_;
  bool started_ = false;
  Nanos interval_;
  Nanos frame_start_{0};
  Nanos frame_end_{0};
  int steps_this_frame_ = 0;
  bool busy_measured_ = false;
  Nanos busy_{0};  ///< render + updates of the current frame (until its first wait/render decision)
  Nanos render_cost_{0};
  Nanos update_cost_{0};  ///< total CPU time of this frame's updates so far
  Nanos update_mark_{0};

  // Shrink: a ring of recent busy times and the frames since the interval last changed.
  std::vector<Nanos> window_;
  std::size_t window_next_ = 0;
  int frames_since_change_ = 0;

  // Hitch recovery.
  bool hitch_pending_ = false;
  Nanos pre_hitch_interval_{0};
  int hitch_seen_ = 0;
  Nanos hitch_max_busy_{0};  ///< display-aware mode
  int hitch_misfits_ = 0;    ///< seed mode: frames after the widen that would not fit the old interval
};

}  // namespace pacer
