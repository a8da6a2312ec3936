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
//   pacer::AdaptiveConfig cfg;              // every constant has a documented default
//   cfg.initial_interval = 16ms;
//   pacer::AdaptivePolicy pacer{cfg, {}};   // FixedStepConfig{} = 1/64 s steps, cap 8
//   auto plan = pacer.begin_frame(0ns);     // then the protocol of pacer/pacer.hpp
#pragma once

#include <vector>

#include "pacer/pacer.hpp"

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
  /// After a widen, if this many following frames would all have fit the old interval
  /// (their render plus the updates the old interval needs, x widen_factor <= old
  /// interval), the widen was a one-off hitch: restore the old interval at once.
  int hitch_frames = 3;
};

/// The seed's loop (background.md section 1) as a pacer policy.
class AdaptivePolicy final : public Pacer {
 public:
  static constexpr std::string_view policy_name = "adaptive";

  AdaptivePolicy(AdaptiveConfig config, FixedStepConfig sim);

  Nanos interval() const override { return interval_; }
  TimeAccount account() const override;
  const FixedStepClock& clock() const override { return clock_; }
  const AdaptiveConfig& config() const { return config_; }

 protected:
  FramePlan on_begin_frame(Nanos now) override;
  void on_end_render(Nanos now) override;
  Action on_next(Nanos now) override;
  void on_end_update(Nanos now) override;

 private:
  void widen_if_overrun(Nanos now);
  void set_interval(Nanos interval);
  void consider_shrink(Nanos busy, Nanos cost_at_pre_hitch);
  Nanos cost_at(Nanos interval) const;
  /// The world time the current frame must show: frame end less the dropped debt.
  Nanos world_target() const { return frame_end_ - clock_.dropped(); }

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
  Nanos hitch_max_busy_{0};
};

}  // namespace pacer
