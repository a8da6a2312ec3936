// pacer/swappy.hpp - Android Frame Pacing (Swappy) as a pacing policy: `swappy`.
//
// The rules of Swappy's common core (android-gamesdk, src/swappy/common/SwappyCommon.cpp
// and .h; docs/pacing.md, "Peers", lists each with its function), in the protocol of
// pacer/pacer.hpp, driving the fixed-step simulation as a game using Swappy does (an
// accumulator with the shared step cap, rendering interpolated):
//
//   - the swap interval is a whole number of refresh periods, never shorter than the
//     game's swap duration (SwappyGL_setSwapIntervalNS);
//   - frame times (CPU work from the start of a frame to its swap; no GPU time here) are
//     averaged over a window of a little over 2 s; with more than 10% of the frames in it
//     missing their target vsync the interval grows (swapSlower), with none missing and
//     the average (+1 ms) shorter than one period less than the interval (-1 ms) it
//     shrinks (swapFaster): frames between the two thresholds change nothing (hysteresis);
//   - pipelining (auto pipeline mode): on after every interval change; off (a frame's
//     work and present within one interval, one interval less latency) once 1.5 x the
//     average fits the interval; back on when frames miss;
//   - each frame targets the vsync `interval` periods after the vsync it started in: with
//     pipelining the present waits for that vsync (the frame is shown at the next);
//     without, the present is held so the frame is shown at that vsync and the next frame
//     starts there. Above max_auto_swap_duration (50 ms) nothing waits.
//
//   using namespace std::chrono_literals;  // the time literals below (ms, ns)
//   pacer::SwappyConfig cfg;                      // 60 Hz, Swappy's defaults
//   cfg.refresh_period = 6'944'444ns;             // a 144 Hz display (pacer::fit_to_display)
//   cfg.swap_duration = cfg.refresh_period;       // let it run at the full rate
//   pacer::SwappyPolicy swappy{cfg, {}};          // FixedStepConfig{}: 1/64 s steps, cap 8
//   auto plan = swappy.begin_frame(0ns);          // then the protocol of pacer/pacer.hpp:
//   // hold the present until plan.present_at, feed display times to observe_display()
#pragma once

#include <cstdint>
#include <deque>

#include "pacer/pacer.hpp"
#include "pacer/peer_step.hpp"
#include "pacer/vblank_grid.hpp"

namespace pacer {

struct SwappyConfig {
  /// The display's refresh period: Swappy's vsync ticks (Choreographer) are this far apart.
  Nanos refresh_period{16'666'667};
  /// The game's shortest swap interval, SwappyGL_setSwapIntervalNS (Settings.h's default:
  /// SWAPPY_SWAP_60FPS). Swappy never swaps faster than this. fit_to_display sets it to
  /// the refresh period: the game asks for the display's full rate.
  Nanos swap_duration{16'666'667};
  /// SwappyCommon::mAutoSwapIntervalThreshold (Swappy_setMaxAutoSwapIntervalNS, 50 ms):
  /// at a swap interval longer than this Swappy neither waits nor sets a presentation time
  /// ("let the app run as fast as it can"), and it stops growing the interval.
  Nanos max_auto_swap_duration{50'000'000};
  /// Swappy_setAutoSwapInterval: false keeps the interval of swap_duration.
  bool auto_swap_interval = true;
  /// Swappy_setAutoPipelineMode: false keeps pipelining on.
  bool auto_pipeline = true;
  /// true: a present is shown at the first vblank at or after it (fifo, mailbox), so a
  /// present meant for vblank V is held until just after the vblank before V. false: shown
  /// when made (immediate, VRR), so it is held until V itself.
  bool vblank_latch = true;
  /// A vsync time (the grid is vblank_phase + k x refresh_period); on a latching display
  /// the grid then locks to every observed display time, as Choreographer ticks follow the
  /// panel's vsync.
  Nanos vblank_phase{0};
  /// A held present goes out this long after the vblank it waits for (latching displays),
  /// so it latches to the next one: Swappy pads its presentation time for the same reason
  /// ("better to be a little late than a little early", SwappyCommon::wakeClient).
  Nanos vblank_margin{50'000};
};

/// Throws std::invalid_argument naming the field and its value: refresh_period and
/// swap_duration outside (0, an hour], max_auto_swap_duration outside (0, an hour],
/// vblank_phase negative or over an hour, vblank_margin outside [0, refresh_period / 4].
void validate(const SwappyConfig& config);

class SwappyPolicy final : public Pacer {
 public:
  static constexpr std::string_view policy_name = "swappy";

  /// Throws std::invalid_argument for a config validate() refuses (either part); stall_clamp
  /// may be 0 (no clamp).
  SwappyPolicy(SwappyConfig config, FixedStepConfig sim);

  /// The swap duration in force: swap_interval() refresh periods.
  Nanos interval() const override { return period() * swap_interval_; }
  TimeAccount account() const override { return step_.account(); }
  const FixedStepClock& clock() const override { return step_.clock(); }

  /// The swap interval in force, in refresh periods (SwappyCommon::mAutoSwapInterval).
  int swap_interval() const { return swap_interval_; }
  /// Pipelining on (SwappyCommon::PipelineMode::On).
  bool pipelined() const { return pipelined_; }
  /// Frames in the averaging window and how many of them missed (FrameDurations).
  std::size_t window_frames() const { return window_.size(); }
  int window_misses() const { return misses_; }
  /// The vsync the current frame targets (the present goes at it, or the frame is shown at it).
  Nanos target_vsync() const { return target_; }
  /// Swap interval changes so far (swapSlower and swapFaster), and pipeline changes.
  std::int64_t interval_changes() const { return interval_changes_; }
  std::int64_t pipeline_changes() const { return pipeline_changes_; }

 protected:
  FramePlan on_begin_frame(Nanos now) override;
  void on_end_render(Nanos now) override;
  Action on_next(Nanos now) override;
  void on_end_update(Nanos) override {}
  void on_observe_display(std::int64_t frame, Nanos display) override;
  void on_present_call(Nanos call) override;
  /// The game's fixed-step simulation takes the new step; the swap interval and the frame
  /// statistics stay.
  bool on_set_step(Nanos step) override {
    step_.set_step(step);
    return true;
  }

 private:
  struct Sample {
    Nanos at;    ///< when it was added (FrameDurations::add takes steady_clock::now())
    Nanos cpu;   ///< clamped to FrameDuration::MAX_DURATION
    bool missed;
  };
  enum class Phase { post_swap, post_wait, update };

  /// The latest vsync tick at or before t (Choreographer's mCurrentFrame, as a time).
  Nanos tick_at(Nanos t) const;
  /// waitForNextFrame's bookkeeping: the frame's CPU time and whether it missed its target.
  void add_frame(Nanos now);
  /// updateSwapInterval (with swapSlower / swapFaster): may change the interval and pipelining.
  void update_swap_interval();
  /// startFrame: the target vsync of the frame that starts now.
  void start_frame(Nanos now);
  /// calculateSwapInterval: whole periods for `frame_time`, rounding up past 500 ns.
  int swap_interval_for(Nanos frame_time) const;
  bool presentation_needed() const { return period() * swap_interval_ <= config_.max_auto_swap_duration; }
  Nanos period() const { return grid_.period(); }
  void note(const detail::PeerNote& n);

  SwappyConfig config_;
  detail::PeerStep step_;
  VblankGrid grid_;
  bool started_ = false;
  Phase phase_ = Phase::update;
  int swap_interval_ = 1;
  bool pipelined_ = true;
  std::deque<Sample> window_;
  Nanos window_sum_{0};
  int misses_ = 0;
  Nanos frame_start_{0};  ///< SwappyCommon::mStartFrameTime
  Nanos swapped_{0};      ///< the end of the current frame's render and present call (no hold)
  Nanos target_{0};       ///< the target vsync (mTargetFrame) as a time
  std::int64_t interval_changes_ = 0;
  std::int64_t pipeline_changes_ = 0;
};

}  // namespace pacer
