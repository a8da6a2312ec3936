#include "pacer/baselines.hpp"

#include <algorithm>
#include <cmath>

namespace pacer {

namespace {
constexpr std::string_view accumulator_name(const AccumulatorConfig& c) {
  return c.target_interval > Nanos::zero() ? "accumulator-capped" : "accumulator";
}

/// `sim`, validated; `clamp_needed`: the loop clamps every frame time to stall_clamp, so
/// 0 would stop the simulation.
const FixedStepConfig& checked(const FixedStepConfig& sim, bool clamp_needed) {
  validate(sim);
  if (clamp_needed && sim.stall_clamp <= Nanos::zero())
    detail::config_error("FixedStepConfig::stall_clamp", "> 0 for this policy", detail::format_value(sim.stall_clamp));
  return sim;
}
}  // namespace

void validate(const AccumulatorConfig& c) {
  constexpr Nanos hour{3'600'000'000'000};
  if (c.target_interval < Nanos::zero() || c.target_interval > hour)
    detail::config_error("AccumulatorConfig::target_interval", ">= 0 and at most an hour",
                         detail::format_value(c.target_interval));
}

// ---------------------------------------------------------------- accumulator

AccumulatorPolicy::AccumulatorPolicy(AccumulatorConfig config, FixedStepConfig sim)
    : Pacer{accumulator_name(config)}, config_{config}, sim_{checked(sim, true)}, interval_{config.target_interval} {
  validate(config);
}

TimeAccount AccumulatorPolicy::account() const {
  TimeAccount a;
  a.elapsed = last_read_ - clock_.start();
  a.simulated = clock_.simulated();
  a.pending = accumulator_;
  a.dropped = clock_.dropped();
  return a;
}

FramePlan AccumulatorPolicy::on_begin_frame(Nanos now) {
  if (!started_) {
    started_ = true;
    clock_ = FixedStepClock{now, sim_.step};
    last_read_ = now;
    target_ticks_ = now;
  }
  FramePlan plan;
  plan.planned_start = now;
  plan.sim_previous = clock_.previous();
  plan.sim_current = clock_.current();
  // alpha = accumulator / dt, in [0, 1): the state shown is one step behind the read. dt is
  // the latest update's step (the step in force, unless set_step() changed it since).
  const Nanos span = clock_.steps() == 0 ? sim_.step : clock_.current() - clock_.previous();
  plan.alpha = static_cast<double>(accumulator_.count()) / static_cast<double>(span.count());
  plan.animation_time = clock_.previous() + accumulator_;
  if (clock_.steps() == 0) plan.animation_time = clock_.current();  // nothing stepped yet: prev == curr
  if (plan.alpha >= 1.0) {
    // A longer step since the latest update owes more than that update's span: the newest
    // state, until the first update of the new step.
    plan.alpha = std::nextafter(1.0, 0.0);
    plan.animation_time = clock_.current();
  }
  return plan;
}

bool AccumulatorPolicy::on_set_step(Nanos step) {
  sim_.step = step;
  clock_.set_step(step);
  return true;
}

void AccumulatorPolicy::on_end_render(Nanos) {
  phase_ = config_.target_interval > Nanos::zero() ? Phase::limit : Phase::read;
}

Action AccumulatorPolicy::on_next(Nanos now) {
  if (phase_ == Phase::limit) {
    // Godot's limiter: the slot advances by the target; sleep until it, and keep the
    // slot within one target of now so a long frame neither bursts nor drifts.
    if (target_ticks_ < now - config_.target_interval) target_ticks_ = now - config_.target_interval;
    const Nanos slot = target_ticks_ + config_.target_interval;
    if (now < slot) return Action{ActionKind::wait, Nanos::zero(), slot};
    target_ticks_ = std::min(slot, now + config_.target_interval);
    phase_ = Phase::read;
  }
  if (phase_ == Phase::read) {
    Nanos frame_time = now - last_read_;
    if (config_.target_interval == Nanos::zero()) interval_ = frame_time;
    last_read_ = now;
    if (frame_time > sim_.stall_clamp) {
      const Nanos debt = frame_time - sim_.stall_clamp;
      clock_.drop(debt);
      note_dropped(debt);
      note_event(event_stall_clamp);
      frame_time = sim_.stall_clamp;
    }
    accumulator_ += frame_time;
    phase_ = Phase::update;
  }
  if (accumulator_ >= sim_.step) {
    accumulator_ -= sim_.step;
    clock_.advance(sim_.step);
    return Action{ActionKind::update, sim_.step, Nanos::zero()};
  }
  return Action{ActionKind::render, Nanos::zero(), Nanos::zero()};
}

// ---------------------------------------------------------------- flipcode

FlipcodePolicy::FlipcodePolicy(FlipcodeConfig config, FixedStepConfig sim)
    : Pacer{"flipcode"}, config_{config}, sim_{checked(sim, false)} {}

TimeAccount FlipcodePolicy::account() const {
  TimeAccount a;
  a.elapsed = time1_ - clock_.start();
  a.simulated = clock_.simulated();
  a.pending = time1_ - time0_;
  a.dropped = clock_.dropped();
  return a;
}

FramePlan FlipcodePolicy::on_begin_frame(Nanos now) {
  if (!started_) {
    started_ = true;
    clock_ = FixedStepClock{now, sim_.step};
    time0_ = time1_ = last_start_ = now;
  }
  interval_ = now - last_start_;
  last_start_ = now;
  FramePlan plan;
  plan.planned_start = now;
  plan.sim_previous = clock_.previous();
  plan.sim_current = clock_.current();
  // GameDrawWithInterpolation(min(1, (time1 - time0) / TICK_TIME)); TICK_TIME is the latest
  // tick's (the step in force, unless set_step() changed it since).
  const Nanos tick = clock_.steps() == 0 ? sim_.step : clock_.current() - clock_.previous();
  const Nanos into = std::min(time1_ - time0_, tick);
  plan.alpha = static_cast<double>(into.count()) / static_cast<double>(tick.count());
  plan.animation_time = clock_.steps() == 0 ? clock_.current() : clock_.previous() + into;
  return plan;
}

bool FlipcodePolicy::on_set_step(Nanos step) {
  sim_.step = step;
  clock_.set_step(step);
  return true;
}

Action FlipcodePolicy::on_next(Nanos now) {
  if (phase_ == Phase::read) {
    time1_ = now;
    loops_ = 0;
    phase_ = Phase::tick;
  }
  if (time1_ - time0_ > sim_.step && loops_ < sim_.max_steps_per_frame) {
    time0_ += sim_.step;
    ++loops_;
    clock_.advance(sim_.step);
    return Action{ActionKind::update, sim_.step, Nanos::zero()};
  }
  if (time1_ - time0_ > sim_.step) {
    note_event(event_step_cap);
    if (!config_.networked) {
      // Solo: discard the time debt.
      const Nanos debt = time1_ - sim_.step - time0_;
      clock_.drop(debt);
      note_dropped(debt);
      time0_ = time1_ - sim_.step;
    }
  }
  return Action{ActionKind::render, Nanos::zero(), Nanos::zero()};
}

// ---------------------------------------------------------------- variable

VariablePolicy::VariablePolicy(FixedStepConfig sim) : Pacer{"variable"}, sim_{checked(sim, true)} {}

TimeAccount VariablePolicy::account() const {
  TimeAccount a;
  a.elapsed = last_read_ - clock_.start();
  a.simulated = clock_.simulated();
  a.dropped = clock_.dropped();
  return a;
}

FramePlan VariablePolicy::on_begin_frame(Nanos now) {
  if (!started_) {
    started_ = true;
    clock_ = FixedStepClock{now, sim_.step};
    last_read_ = now;
  }
  FramePlan plan;
  plan.planned_start = now;
  plan.sim_previous = clock_.previous();
  plan.sim_current = clock_.current();
  plan.alpha = 1.0;
  plan.animation_time = clock_.current();
  plan.interpolate = false;
  return plan;
}

bool VariablePolicy::on_set_step(Nanos step) {
  sim_.step = step;
  clock_.set_step(step);
  return true;
}

Action VariablePolicy::on_next(Nanos now) {
  if (!pending_read_) return Action{ActionKind::render, Nanos::zero(), Nanos::zero()};
  pending_read_ = false;
  Nanos dt = now - last_read_;
  interval_ = dt;
  last_read_ = now;
  if (dt > sim_.stall_clamp) {
    const Nanos debt = dt - sim_.stall_clamp;
    clock_.drop(debt);
    note_dropped(debt);
    note_event(event_stall_clamp);
    dt = sim_.stall_clamp;
  }
  if (dt <= Nanos::zero()) return Action{ActionKind::render, Nanos::zero(), Nanos::zero()};
  clock_.advance(dt);
  return Action{ActionKind::update, dt, Nanos::zero()};
}

}  // namespace pacer
