// pacer/adaptive_literal.hpp - the seed's adaptive interval exactly as first built
// ("adaptive-literal"), kept for comparison with the display-aware `adaptive`.
//
// Render at the start of each interval; on overrun (render, then each update)
// widen to widen_factor x the frame so far, moving the frame end; update until the
// simulation is just past the frame end; wait; render the world at the frame end.
// Shrink and hitch recovery as documented on AdaptiveConfig. It reads only the seed
// fields of AdaptiveConfig (not refresh_period, plan_presents, ...).
//
//   pacer::AdaptiveConfig cfg;
//   cfg.initial_interval = 16ms;
//   pacer::AdaptiveLiteralPolicy pacer{cfg, {}};
//   auto plan = pacer.begin_frame(0ns);     // then the protocol of pacer/pacer.hpp
#pragma once

#include <vector>

#include "pacer/adaptive.hpp"

namespace pacer {

/// The seed's loop (background.md section 1) as first implemented: widen to
/// widen_factor x the frame time on overrun, geometric shrink, hitch restore.
/// Blind to the display: it plans no presents and knows no refresh period.
class AdaptiveLiteralPolicy final : public Pacer {
 public:
  static constexpr std::string_view policy_name = "adaptive-literal";

  AdaptiveLiteralPolicy(AdaptiveConfig config, FixedStepConfig sim);

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
