// pacer/framepace.hpp - bevy_framepace's frame limiter as a pacing policy: `framepace`.
//
// bevy_framepace (github aevyrie/bevy_framepace, src/lib.rs) sleeps once per frame, after
// the render and present and before the next frame's input and simulation, so that frames
// start FrametimeLimit apart: sleep = limit - (the frame's work since the last sleep ended
// + the previous sleep's oversleep), none when that is negative (framerate_limiter). In
// its Auto mode the limit is the monitor's refresh, rounded down by 0.5 Hz
// (detect_frametime). A game using it drives the fixed-step simulation after the sleep (an
// accumulator with the shared step cap, rendering interpolated). docs/pacing.md, "Peers".
//
// forward_estimate = true runs the limiter bevy_framepace had until April 2022 (commit
// e18a31b, "latency and framedrop improvements"): after the present it sleeps
// target - (mean + 3 sigma of the last 64 frames' work + safety margin), its forward
// estimate of the next frame's work, so the frame ends just before its deadline; before
// the render an exact limiter sleeps off what is left of the target less the margin.
//
//   using namespace std::chrono_literals;  // the time literals below (ms, ns)
//   pacer::FramepaceConfig cfg;                   // Auto on a 60 Hz monitor: 1/59.5 s
//   cfg.frametime_limit = pacer::framepace_auto_limit(6'944'444ns);   // a 144 Hz monitor
//   pacer::FramepacePolicy limiter{cfg, {}};      // FixedStepConfig{}: 1/64 s steps, cap 8
//   auto plan = limiter.begin_frame(0ns);         // then the protocol of pacer/pacer.hpp
#pragma once

#include <array>
#include <cstdint>

#include "pacer/pacer.hpp"
#include "pacer/peer_step.hpp"

namespace pacer {

/// Limiter::Auto's frame time for a monitor refreshing every `refresh_period`:
/// 1 / (refresh Hz - 0.5) ("round down to handle the worst case scenario of a rounded
/// refresh rate", detect_frametime). 60 Hz: 16'806'723 ns.
Nanos framepace_auto_limit(Nanos refresh_period);

struct FramepaceConfig {
  /// FrametimeLimit: frames start this far apart. 0 is Limiter::Off (no sleep). The
  /// default is Limiter::Auto on a 60 Hz monitor; fit_to_display sets Auto for the display
  /// (its refresh; 60 Hz when unknown; a VRR panel's fastest).
  Nanos frametime_limit{16'806'723};
  /// The 2022 limiter (forward estimate + exact limiter, commit e18a31b) instead of the
  /// current one.
  bool forward_estimate = false;
  /// forward_estimate only: FramepacePlugin::safety_margin (200 us by default).
  Nanos safety_margin{200'000};
};

/// Throws std::invalid_argument naming the field and its value: frametime_limit negative or
/// over an hour, safety_margin negative or over an hour.
void validate(const FramepaceConfig& config);

class FramepacePolicy final : public Pacer {
 public:
  static constexpr std::string_view policy_name = "framepace";
  /// FRAMETIME_SAMPLES of the forward estimator.
  static constexpr std::size_t samples = 64;

  /// Throws std::invalid_argument for a config validate() refuses (either part).
  FramepacePolicy(FramepaceConfig config, FixedStepConfig sim);

  Nanos interval() const override { return config_.frametime_limit; }
  TimeAccount account() const override { return step_.account(); }
  const FixedStepClock& clock() const override { return step_.clock(); }

  /// FramePaceStats::oversleep: how far the last frame (work + sleep) ran past the limit.
  Nanos oversleep() const { return oversleep_; }
  /// FramePaceStats::frametime: the last frame's work before its sleep.
  Nanos frametime() const { return frametime_; }
  /// forward_estimate: the estimated work of the next frame (mean + 3 sigma + margin).
  Nanos estimate() const { return estimate_; }

 protected:
  FramePlan on_begin_frame(Nanos now) override;
  void on_end_render(Nanos now) override;
  Action on_next(Nanos now) override;
  void on_end_update(Nanos) override {}
  /// Bevy's fixed-step schedule takes the new step; the limiter and its estimate stay.
  bool on_set_step(Nanos step) override {
    step_.set_step(step);
    return true;
  }

 private:
  enum class Phase { sleep, woke, update, exact, exact_woke, done };
  void note(const detail::PeerNote& n);
  /// Sleep deadline after the present (either limiter), and the bookkeeping after it.
  Nanos sleep_deadline(Nanos now);
  void after_sleep(Nanos now);

  FramepaceConfig config_;
  detail::PeerStep step_;
  bool started_ = false;
  Phase phase_ = Phase::done;
  Nanos sleep_end_{0};   ///< FrameTimer::sleep_end
  Nanos oversleep_{0};
  Nanos frametime_{0};
  // forward_estimate (FrameTimer of commit e18a31b).
  std::array<Nanos, samples> history_{};
  std::size_t history_size_ = 0, history_next_ = 0;
  Nanos post_render_start_{0};
  Nanos render_start_{0};
  Nanos exact_sleep_{0};
  Nanos exact_from_{0};  ///< system_start of the exact limiter
  Nanos estimate_{0};
};

}  // namespace pacer
