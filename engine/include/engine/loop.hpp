// engine/loop.hpp - the real-time loop: the only place that reads the clock or waits.
//
// It drives any pacer policy through pacer::FrameDriver (pacer/frame_driver.hpp), the
// same driver the virtual-time simulator uses, so both make the same calls in the same
// order: it renders the scene with the plan's alpha, holds the present until the plan's
// time, presents through a FrameTarget, runs the fixed updates the pacer asks for and
// waits where it says. Completed frame records go to a callback (with display times
// patched in when the target reports them).
//
//   engine::SteadyClock clock;
//   engine::PreciseWaiter waiter{clock};
//   engine::Loop loop{clock, waiter, target, scene};
//   loop.set_pacer(pacer::make_pacer("adaptive", cfg));
//   loop.on_record = [&](const pacer::FrameRecord& r) { log.write(r); };
//   loop.run({.max_frames = 600});
//
// Clock jumps: the loop's time never goes backwards. A clock that steps back (a manual
// clock in a test, a host clock set back) makes a zero-length gap and the loop goes on
// from there (waits translated to the clock's own time); a step forward is a stall the
// policies' stall clamp and step cap absorb (no burst of updates). A run that ends with an
// exception (a lost device or surface) hands every frame already presented to on_record
// first.
#pragma once

#include <functional>
#include <memory>

#include "engine/clock.hpp"
#include "engine/frame_target.hpp"
#include "engine/scene.hpp"
#include "engine/waiter.hpp"
#include "pacer/frame_driver.hpp"

namespace engine {

struct RunLimits {
  std::int64_t max_frames = 0;  ///< 0: no limit
  Nanos max_duration{0};        ///< 0: no limit
};

struct RunResult {
  std::int64_t frames = 0;
  Nanos duration{0};
  bool quit_requested = false;  ///< stopped by poll() / a closed window, not by a limit
};

class Loop {
 public:
  Loop(const Clock& clock, Waiter& waiter, FrameTarget& target, Scene& scene);
  ~Loop();
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;

  /// Takes effect at the next frame boundary (P cycles policies this way).
  void set_pacer(std::unique_ptr<pacer::Pacer> pacer) { next_pacer_ = std::move(pacer); }
  const pacer::Pacer* pacer() const { return pacer_.get(); }
  /// Space toggles this: render the current state (alpha 1) instead of the blend.
  void set_interpolate(bool on) { interpolate_ = on; }
  bool interpolate() const { return interpolate_; }

  /// Platform events once a frame; false quits.
  std::function<bool()> poll;
  /// Each completed frame record, in order (frame numbers count across policy switches).
  std::function<void(const pacer::FrameRecord&)> on_record;
  /// After each frame's present, with its plan (status lines, captures).
  std::function<void(const pacer::FramePlan&)> on_presented;

  RunResult run(const RunLimits& limits);

  /// The loop's time: the clock's, held where the clock stepped backwards.
  Nanos now();
  /// How many times the clock was seen stepping backwards.
  std::int64_t clock_steps_back() const { return clock_steps_back_; }

 private:
  class Host;
  RunResult run_frames(const RunLimits& limits);

  const Clock& clock_;
  Waiter& waiter_;
  FrameTarget& target_;
  Scene& scene_;
  std::unique_ptr<pacer::Pacer> pacer_, next_pacer_;
  bool interpolate_ = true;
  Nanos offset_{0};                          ///< loop time - clock time (backward steps absorbed)
  Nanos latest_{Nanos::min()};               ///< the latest loop time handed out
  std::int64_t clock_steps_back_ = 0;
  DrawList draw_;
  std::unique_ptr<Host> host_;
  std::unique_ptr<pacer::FrameDriver> driver_;
};

}  // namespace engine
