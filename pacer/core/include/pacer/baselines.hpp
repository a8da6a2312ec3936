// pacer/baselines.hpp - the classic loops the adaptive pacer is measured against,
// on the same protocol (pacer/pacer.hpp), each faithful to its published form.
//
//   accumulator         "Fix your timestep": fixed dt, accumulator, frame time clamped to
//                       0.25 s, alpha = accumulator / dt in [0, 1), uncapped frame rate.
//   accumulator-capped  the same with a frame-rate limiter at a target interval, the way
//                       engines ship it (Godot's target-ticks limiter).
//   flipcode            Javier Arevalo's loop: TICK_TIME, MAX_LOOPS, time debt discarded
//                       in solo play, kept in a networked (lockstep) game.
//   variable            one update of the measured frame time, no interpolation.
//
//   using namespace std::chrono_literals;  // the time literals below (ms, ns)
//   pacer::AccumulatorPolicy acc{{}, {}};       // uncapped, dt = 1/64 s
//   auto plan = acc.begin_frame(0ns);           // then the protocol of pacer/pacer.hpp
#pragma once

#include "pacer/pacer.hpp"

namespace pacer {

struct AccumulatorConfig {
  /// Frame-rate limiter: 0 runs uncapped ("accumulator"); > 0 waits so frames start
  /// this far apart on average ("accumulator-capped"). 1/60 s is the usual target.
  Nanos target_interval{0};
};

/// Throws std::invalid_argument unless 0 <= target_interval <= an hour.
void validate(const AccumulatorConfig& config);

/// Every constructor below throws std::invalid_argument for a FixedStepConfig that
/// validate() refuses; the accumulator and variable loops also need stall_clamp > 0 (they
/// clamp every frame time to it).

/// Gaffer's accumulator loop; uses FixedStepConfig::step as dt and stall_clamp as the
/// frame-time clamp. It has no step cap (the published loop has none).
class AccumulatorPolicy final : public Pacer {
 public:
  AccumulatorPolicy(AccumulatorConfig config, FixedStepConfig sim);

  Nanos interval() const override { return interval_; }
  TimeAccount account() const override;
  const FixedStepClock& clock() const override { return clock_; }
  Nanos accumulator() const { return accumulator_; }

 protected:
  FramePlan on_begin_frame(Nanos now) override;
  void on_end_render(Nanos now) override;
  Action on_next(Nanos now) override;
  void on_end_update(Nanos) override {}
  /// The accumulator and the limiter's slot stay; the owed time is stepped in the new step.
  bool on_set_step(Nanos step) override;

 private:
  enum class Phase { limit, read, update };
  AccumulatorConfig config_;
  FixedStepConfig sim_;
  FixedStepClock clock_;
  bool started_ = false;
  Phase phase_ = Phase::read;
  Nanos last_read_{0};
  Nanos accumulator_{0};
  Nanos target_ticks_{0};   ///< the limiter's next slot
  Nanos interval_{0};       ///< target interval, or the last measured frame time when uncapped
};

struct FlipcodeConfig {
  /// true: a networked (lockstep) game keeps its time debt and catches up later;
  /// false (solo): the debt beyond one tick is thrown away after MAX_LOOPS.
  bool networked = false;
};

/// The flipcode loop; TICK_TIME is FixedStepConfig::step, MAX_LOOPS is max_steps_per_frame.
class FlipcodePolicy final : public Pacer {
 public:
  FlipcodePolicy(FlipcodeConfig config, FixedStepConfig sim);

  Nanos interval() const override { return interval_; }
  TimeAccount account() const override;
  const FixedStepClock& clock() const override { return clock_; }

 protected:
  FramePlan on_begin_frame(Nanos now) override;
  void on_end_render(Nanos) override { phase_ = Phase::read; }
  Action on_next(Nanos now) override;
  void on_end_update(Nanos) override {}
  /// Game time (time0) and the clock reads stay; TICK_TIME is the new step.
  bool on_set_step(Nanos step) override;

 private:
  enum class Phase { read, tick };
  FlipcodeConfig config_;
  FixedStepConfig sim_;
  FixedStepClock clock_;
  bool started_ = false;
  Phase phase_ = Phase::read;
  Nanos time0_{0};   ///< game time: the world clock time of the current state
  Nanos time1_{0};   ///< the latest clock read
  int loops_ = 0;
  Nanos last_start_{0};
  Nanos interval_{0};
};

/// Variable dt: one update of the measured frame time (clamped by stall_clamp), no interpolation.
class VariablePolicy final : public Pacer {
 public:
  explicit VariablePolicy(FixedStepConfig sim);

  Nanos interval() const override { return interval_; }
  TimeAccount account() const override;
  const FixedStepClock& clock() const override { return clock_; }

 protected:
  FramePlan on_begin_frame(Nanos now) override;
  void on_end_render(Nanos) override { pending_read_ = true; }
  Action on_next(Nanos now) override;
  void on_end_update(Nanos) override {}
  /// The step is only the clock's nominal one here (each update is the frame time).
  bool on_set_step(Nanos step) override;

 private:
  FixedStepConfig sim_;
  FixedStepClock clock_;
  bool started_ = false;
  bool pending_read_ = false;
  Nanos last_read_{0};
  Nanos interval_{0};
};

}  // namespace pacer
