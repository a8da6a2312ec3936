// pacer/peer_step.hpp - (detail, shared by swappy.hpp and framepace.hpp) the fixed-step simulation the peer policies
// (swappy, framepace) drive as a game using those libraries does: a "Fix your timestep"
// accumulator read once per frame, updates while a whole step is owed within the shared
// step cap (FixedStepConfig::max_steps_per_frame), the render interpolated one step behind.
//
//   pacer::detail::PeerStep sim{config};            // validated FixedStepConfig
//   sim.start(now);                                 // the first frame
//   pacer::detail::PeerNote note = sim.read(now);   // once per frame, before the updates
//   while (auto step = sim.step(note)) update(*step);   // note: events, dropped debt
//   sim.fill(plan);                                 // alpha and animation time of the render
#pragma once

#include <optional>

#include "pacer/pacer.hpp"

namespace pacer::detail {

/// What a read or a step did besides stepping: event bits and debt dropped, for the record.
struct PeerNote {
  unsigned events = event_none;
  Nanos dropped{0};
};

class PeerStep {
 public:
  explicit PeerStep(FixedStepConfig sim) : sim_{sim} {}

  bool started() const { return started_; }
  void start(Nanos now) {
    started_ = true;
    clock_ = FixedStepClock{now, sim_.step};
    last_read_ = now;
  }

  /// Reads the clock at the start of the frame's simulation: the time since the last read
  /// is owed to the world. A stall longer than stall_clamp drops the excess at once
  /// (discard debt only, as adaptive does; keep debt catches it up within the cap).
  PeerNote read(Nanos now) {
    PeerNote note;
    Nanos frame_time = now - last_read_;
    last_read_ = now;
    steps_ = 0;
    if (sim_.debt == DebtPolicy::discard && sim_.stall_clamp > Nanos::zero() && frame_time > sim_.stall_clamp) {
      note.dropped = frame_time - sim_.stall_clamp;
      note.events = event_stall_clamp;
      clock_.drop(note.dropped);
      frame_time = sim_.stall_clamp;
    }
    accumulator_ += frame_time;
    return note;
  }

  /// The next update of this frame, or nullopt when the world is within a step of the read
  /// time or the frame has had max_steps_per_frame updates (then whole steps still owed are
  /// dropped with discard debt, kept with keep debt; the fraction of a step stays).
  std::optional<Nanos> step(PeerNote& note) {
    if (accumulator_ < sim_.step) return std::nullopt;
    if (steps_ >= sim_.max_steps_per_frame) {
      note.events |= event_step_cap;
      if (sim_.debt == DebtPolicy::discard) {
        const Nanos debt = accumulator_ - accumulator_ % sim_.step;
        accumulator_ -= debt;
        clock_.drop(debt);
        note.dropped += debt;
      }
      return std::nullopt;
    }
    ++steps_;
    accumulator_ -= sim_.step;
    clock_.advance(sim_.step);
    return sim_.step;
  }

  /// The render: lerp(previous, current, accumulator / step), one step behind the read, as
  /// the accumulator baseline shows it; a keep-debt backlog of a whole step or more shows
  /// the newest state (alpha 1).
  void fill(FramePlan& plan) const {
    plan.sim_previous = clock_.previous();
    plan.sim_current = clock_.current();
    if (clock_.steps() == 0) {
      plan.alpha = 1.0;
      plan.animation_time = clock_.current();
    } else if (const Nanos span = clock_.current() - clock_.previous(); accumulator_ >= span) {
      // (span: the latest update's step, the step in force unless set_step() changed it since)
      plan.alpha = 1.0;
      plan.animation_time = clock_.current();
    } else {
      plan.alpha = static_cast<double>(accumulator_.count()) / static_cast<double>(span.count());
      plan.animation_time = clock_.previous() + accumulator_;
    }
  }

  TimeAccount account() const {
    TimeAccount a;
    a.elapsed = last_read_ - clock_.start();
    a.simulated = clock_.simulated();
    a.pending = accumulator_;
    a.dropped = clock_.dropped();
    return a;
  }

  const FixedStepClock& clock() const { return clock_; }
  Nanos accumulator() const { return accumulator_; }
  /// The step of the updates from the next one on; the accumulator (the time owed) stays.
  void set_step(Nanos step) {
    sim_.step = step;
    clock_.set_step(step);
  }

 private:
  FixedStepConfig sim_;
  FixedStepClock clock_;
  bool started_ = false;
  Nanos last_read_{0};
  Nanos accumulator_{0};
  int steps_ = 0;
};

}  // namespace pacer::detail
