// pacer/fixed_step.hpp - the fixed-step simulation clock every policy shares.
//
// The clock holds the simulation times of the previous and the current world
// state, the number of steps taken and the time debt deliberately discarded.
// Simulation times live on the caller's clock: the simulation starts at the
// time of the first frame, so `shown = previous + alpha * (current - previous)`
// is directly comparable with the time the frame is displayed.
//
//   using namespace std::chrono_literals;  // the time literals below (ms, ns)
//   pacer::FixedStepClock clock{start, 15'625'000ns};
//   clock.advance(clock.step());              // previous = current; current += step
//   double a = clock.alpha_at(frame_end);     // (frame_end - previous) / (current - previous)
#pragma once

#include <cstdint>

#include "pacer/time.hpp"

namespace pacer {

/// What happens to simulation time the loop could not simulate within the
/// per-frame step cap (or that a stall clamp cut away).
enum class DebtPolicy {
  discard,  ///< single player (default): the world slows down, time is dropped and logged
  keep,     ///< lockstep / networked: the debt is caught up over later frames, within the cap
};

/// Constants of the fixed-step simulation; zero-initialised members are never
/// meaningful, every default is documented here.
struct FixedStepConfig {
  /// Simulation step. 1/64 s by default: an exact number of nanoseconds (1/60 s is not),
  /// and a rate that does not beat against 60 Hz displays in lockstep (Bevy's reasoning).
  Nanos step{15'625'000};
  /// Most updates run between two renders; the guard against the spiral of death
  /// (Godot's max_physics_steps_per_frame default is 8 too).
  int max_steps_per_frame = 8;
  /// A frame that must cover more simulation time than this (a debugger break, a
  /// suspended laptop) drops the excess at once (discard mode only). 0.25 s, as in
  /// "Fix your timestep".
  Nanos stall_clamp{250'000'000};
  DebtPolicy debt = DebtPolicy::discard;
};

/// Throws std::invalid_argument naming the field and its value unless step > 0 (and at
/// most an hour), max_steps_per_frame >= 1 and stall_clamp >= 0. Every policy's
/// constructor calls it: a bad config is refused when the pacer is made, not met as a
/// division by zero (SIGFPE) or an endless loop later.
void validate(const FixedStepConfig& config);

/// Previous/current simulation time plus exact accounting of what was stepped and dropped.
class FixedStepClock {
 public:
  FixedStepClock() = default;
  FixedStepClock(Nanos start, Nanos step) : start_{start}, previous_{start}, current_{start}, step_{step} {}

  Nanos start() const { return start_; }
  Nanos step() const { return step_; }
  Nanos previous() const { return previous_; }
  Nanos current() const { return current_; }
  std::int64_t steps() const { return steps_; }
  /// Sum of all step sizes advanced (= current - start).
  Nanos simulated() const { return current_ - start_; }
  /// Total simulation time debt discarded so far.
  Nanos dropped() const { return dropped_; }

  /// One update: previous = current; current += step (step > 0).
  void advance(Nanos step) {
    previous_ = current_;
    current_ += step;
    ++steps_;
  }
  void drop(Nanos debt) { dropped_ += debt; }
  /// The step of the updates from now on (Pacer::set_step); the times stepped so far stay.
  void set_step(Nanos step) { step_ = step; }

  /// Proportion of the way from previous to current at simulation time t.
  /// 1.0 when no step has been taken yet (previous == current). Not clamped.
  double alpha_at(Nanos t) const {
    const Nanos span = current_ - previous_;
    if (span <= Nanos::zero()) return 1.0;
    return static_cast<double>((t - previous_).count()) / static_cast<double>(span.count());
  }

 private:
  Nanos start_{0};
  Nanos previous_{0};
  Nanos current_{0};
  Nanos step_{15'625'000};
  Nanos dropped_{0};
  std::int64_t steps_ = 0;
};

}  // namespace pacer
