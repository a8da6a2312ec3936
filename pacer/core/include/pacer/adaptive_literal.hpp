// pacer/adaptive_literal.hpp - the seed's adaptive render interval, as written (docs/pacing.md,
// "The seed loop"), blind to the display. Kept as its own policy for comparison
// ("adaptive-literal"), and the base the display-aware policy (pacer/adaptive.hpp) runs as
// until it knows the display.
//
// Render at the start of each interval. When the frame so far (render, then each update)
// took longer than the interval, widen it to widen_factor x that time, moving the frame
// end. Update until the simulation is just past the frame end, wait for the frame end,
// then render the world at the frame end: alpha = (frame_end - previous) / (current -
// previous), in (0, 1]. With sustained headroom the interval shrinks slowly; a one-off
// hitch is forgiven after a few frames that fit the old interval.
//
//   using namespace std::chrono_literals;  // the time literals below (ms, ns)
//   pacer::AdaptiveConfig cfg;                      // only the seed's fields are read
//   cfg.initial_interval = 16ms;
//   pacer::AdaptiveLiteralPolicy pacer{cfg, {}};     // FixedStepConfig{} = 1/64 s steps, cap 8
//   auto plan = pacer.begin_frame(0ns);              // then the protocol of pacer/pacer.hpp
#pragma once

#include <vector>

#include "pacer/adaptive_config.hpp"
#include "pacer/pacer.hpp"

namespace pacer {

class AdaptiveLiteralPolicy : public Pacer {
 public:
  static constexpr std::string_view policy_name = "adaptive-literal";

  /// `name` is the policy name in records and logs (a string literal or other static string).
  /// Throws std::invalid_argument for a config validate() refuses (either part).
  AdaptiveLiteralPolicy(AdaptiveConfig config, FixedStepConfig sim, std::string_view name = policy_name);

  Nanos interval() const override { return interval_; }
  TimeAccount account() const override;
  const FixedStepClock& clock() const override { return clock_; }
  const AdaptiveConfig& config() const { return config_; }

 protected:
  FramePlan on_begin_frame(Nanos now) override;
  void on_end_render(Nanos now) override;
  Action on_next(Nanos now) override;
  void on_end_update(Nanos now) override;
  /// The present call is CPU work of the frame (busy time), after the hold.
  void on_present_call(Nanos call) override { render_cost_ += call; }
  /// A new step from the next update: the interval, the estimates and the owed time stay.
  bool on_set_step(Nanos step) override {
    sim_.step = step;
    clock_.set_step(step);
    return true;
  }

  // ---- shared with the display-aware policy
  /// The simulation starts at the first frame: "render with proportion 1.0 (the world at time 0)".
  void start_clock(Nanos now);
  /// The world time the current frame must show: frame end less the dropped debt (and,
  /// display-aware, less the lag of late frames).
  virtual Nanos world_target() const { return frame_end_ - clock_.dropped(); }
  /// alpha and animation time of the plan: the world at the frame's target time.
  void show_world_target(FramePlan& plan) const;
  /// A stall (a debugger break, a suspended laptop): owed simulation past the clamp is dropped.
  void clamp_stall();
  /// Out of updates for this frame while still short of the target.
  void hit_step_cap();
  /// The frame's busy time ends at its first wait-or-render decision.
  void measure_busy(Nanos now);

  /// The seed's hitch recovery: after a widen, whether the frames after it fit the old interval.
  struct SeedHitch {
    bool pending = false;
    Nanos pre_interval{0};
    int seen = 0;     ///< frames judged since the widen (-1: the widening frame itself)
    int misfits = 0;  ///< of those, frames that would not fit the old interval
  };

  AdaptiveConfig config_;
  FixedStepConfig sim_;
  FixedStepClock clock_;
  bool started_ = false;
  Nanos interval_;
  Nanos frame_start_{0};
  Nanos frame_end_{0};
  int steps_this_frame_ = 0;
  bool busy_measured_ = false;
  Nanos busy_{0};         ///< render + updates of the current frame (until its first wait/render decision)
  Nanos render_cost_{0};
  Nanos update_cost_{0};  ///< total CPU time of this frame's updates so far
  Nanos update_mark_{0};
  int frames_since_change_ = 0;
  SeedHitch seed_hitch_;
  /// The frame's render plus its updates (`update_cost` over steps_this_frame_ of them), had
  /// it covered `interval` of simulation: a wide interval runs more updates, so raw busy time
  /// overstates what a narrow one needs. At most `max_steps` updates.
  Nanos cost_at(Nanos interval, Nanos update_cost, std::int64_t max_steps) const;

 private:
  void widen_if_overrun(Nanos now);
  void set_interval(Nanos interval);
  void consider_shrink(Nanos busy, Nanos cost_at_pre_hitch);

  // Shrink: a ring of recent busy times.
  std::vector<Nanos> window_;
  std::size_t window_next_ = 0;
};

}  // namespace pacer
