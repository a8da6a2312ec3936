#include "pacer/adaptive_literal.hpp"

#include <algorithm>
#include <limits>

#include "ring.hpp"

namespace pacer {

namespace {

/// The config, once validate() has accepted it (members are initialised from it).
const AdaptiveConfig& checked(const AdaptiveConfig& config, const FixedStepConfig& sim) {
  validate(sim);
  validate(config);
  return config;
}

}  // namespace

AdaptiveLiteralPolicy::AdaptiveLiteralPolicy(AdaptiveConfig config, FixedStepConfig sim, std::string_view name)
    : Pacer{name},
      config_{checked(config, sim)},
      sim_{sim},
      interval_{std::clamp(config.initial_interval, config.min_interval, config.max_interval)} {
  window_.reserve(static_cast<std::size_t>(std::max(config_.shrink_window, 1)));
}

TimeAccount AdaptiveLiteralPolicy::account() const {
  TimeAccount a;
  a.elapsed = frame_end_ - clock_.start();
  a.simulated = clock_.simulated();
  a.dropped = clock_.dropped();
  a.pending = a.elapsed - a.simulated - a.dropped;
  return a;
}

void AdaptiveLiteralPolicy::start_clock(Nanos now) {
  started_ = true;
  clock_ = FixedStepClock{now, sim_.step};
}

FramePlan AdaptiveLiteralPolicy::on_begin_frame(Nanos now) {
  FramePlan plan;
  if (!started_) {
    start_clock(now);
    frame_end_ = now;
  } else if (busy_measured_) {
    consider_shrink(busy_, cost_at(seed_hitch_.pre_interval, update_cost_, std::numeric_limits<std::int64_t>::max()));
  }
  plan.planned_start = frame_end_;  // the previous frame's planned end
  plan.sim_previous = clock_.previous();
  plan.sim_current = clock_.current();
  show_world_target(plan);

  frame_start_ = now;
  frame_end_ = now + interval_;
  steps_this_frame_ = 0;
  busy_measured_ = false;
  return plan;
}

void AdaptiveLiteralPolicy::on_end_render(Nanos now) {
  render_cost_ = now - frame_start_;
  update_mark_ = now;
  update_cost_ = Nanos::zero();
  widen_if_overrun(now);
}

void AdaptiveLiteralPolicy::on_end_update(Nanos now) {
  update_cost_ += now - update_mark_;
  widen_if_overrun(now);
}

Nanos AdaptiveLiteralPolicy::cost_at(Nanos interval, Nanos update_cost, std::int64_t max_steps) const {
  if (steps_this_frame_ == 0) return render_cost_;
  const Nanos per_update = update_cost / steps_this_frame_;
  // ceil(interval / step), + the step just past the end
  const std::int64_t steps = std::min<std::int64_t>((interval + sim_.step - Nanos{1}) / sim_.step + 1, max_steps);
  return render_cost_ + per_update * steps;
}

void AdaptiveLiteralPolicy::widen_if_overrun(Nanos now) {
  const Nanos frame_time = now - frame_start_;
  if (frame_time <= interval_) return;
  const Nanos before = interval_;
  // "An interval we have a chance of hitting".
  set_interval(scale(frame_time, config_.widen_factor));
  if (interval_ == before) return;  // already at the floor rate
  note_event(event_widen);
  if (!seed_hitch_.pending) {
    seed_hitch_.pending = true;
    seed_hitch_.pre_interval = before;
  }
  seed_hitch_.seen = -1;  // the widening frame itself is the hitch: judge the frames after it
  seed_hitch_.misfits = 0;
}

void AdaptiveLiteralPolicy::set_interval(Nanos interval) {
  interval_ = std::clamp(interval, config_.min_interval, config_.max_interval);
  frame_end_ = frame_start_ + interval_;
  frames_since_change_ = 0;
}

Action AdaptiveLiteralPolicy::on_next(Nanos now) {
  if (clock_.current() < world_target()) {
    // The simulation is not yet just past the frame end.
    clamp_stall();
    if (steps_this_frame_ < sim_.max_steps_per_frame) {
      ++steps_this_frame_;
      update_mark_ = now;
      clock_.advance(sim_.step);
      return Action{ActionKind::update, sim_.step, Nanos::zero()};
    }
    hit_step_cap();
  }
  measure_busy(now);
  if (now < frame_end_) return Action{ActionKind::wait, Nanos::zero(), frame_end_};
  return Action{ActionKind::render, Nanos::zero(), Nanos::zero()};
}

void AdaptiveLiteralPolicy::show_world_target(FramePlan& plan) const {
  const Nanos target = world_target();
  if (target >= clock_.current()) {
    // Caught up exactly, or behind by kept debt (step cap in keep mode): show the newest state.
    plan.alpha = 1.0;
    plan.animation_time = clock_.current();
  } else {
    plan.alpha = clock_.alpha_at(target);
    plan.animation_time = target;
  }
}

void AdaptiveLiteralPolicy::clamp_stall() {
  const Nanos gap = world_target() - clock_.current();
  if (sim_.debt == DebtPolicy::discard && sim_.stall_clamp > Nanos::zero() && gap > sim_.stall_clamp) {
    const Nanos debt = gap - sim_.stall_clamp;
    clock_.drop(debt);
    note_dropped(debt);
    note_event(event_stall_clamp);
  }
}

void AdaptiveLiteralPolicy::hit_step_cap() {
  note_event(event_step_cap);
  if (sim_.debt == DebtPolicy::discard) {
    const Nanos debt = world_target() - clock_.current();
    clock_.drop(debt);
    note_dropped(debt);
  }
}

void AdaptiveLiteralPolicy::measure_busy(Nanos now) {
  if (busy_measured_) return;
  busy_measured_ = true;
  busy_ = now - frame_start_;
}

void AdaptiveLiteralPolicy::consider_shrink(Nanos busy, Nanos cost_at_pre_hitch) {
  const auto window = static_cast<std::size_t>(std::max(config_.shrink_window, 1));
  detail::push_ring(window_, window_next_, window, busy);
  ++frames_since_change_;

  SeedHitch& h = seed_hitch_;
  if (h.pending && h.seen < 0) {
    h.seen = 0;
  } else if (h.pending) {
    ++h.seen;
    if (scale(cost_at_pre_hitch, config_.widen_factor) > h.pre_interval) ++h.misfits;
    // A hitch often drags a second, smaller overrun behind it (a GC, a stream-in): the
    // change is lasting only when most of the frames after the widen need it.
    if (h.misfits * 2 > config_.hitch_frames) {
      h.pending = false;
    } else if (h.seen >= config_.hitch_frames) {
      h.pending = false;
      if (config_.shrink && h.pre_interval < interval_) {
        interval_ = h.pre_interval;
        frames_since_change_ = 0;
        note_event(event_shrink);
        // Forget the hitch, or it would hold the next shrink decision hostage.
        window_.clear();
        window_next_ = 0;
      }
      return;
    }
  }

  if (!config_.shrink || window_.size() < window) return;
  if (frames_since_change_ < config_.shrink_window) return;
  const Nanos busiest = *std::max_element(window_.begin(), window_.end());
  const Nanos target = std::clamp(scale(busiest, config_.widen_factor), config_.min_interval, config_.max_interval);
  if (target >= interval_) return;
  Nanos next = interval_ - scale(interval_ - target, config_.shrink_fraction);
  // The last few microseconds are not worth another half-second of waiting.
  if (next - target < config_.min_shrink_step) next = target;
  interval_ = next;
  frames_since_change_ = 0;
  note_event(event_shrink);
}

}  // namespace pacer
