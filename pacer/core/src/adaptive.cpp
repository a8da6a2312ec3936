#include "pacer/adaptive.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace pacer {

namespace {

/// Appends to a ring of at most `capacity` values; `next` is where the next one goes.
void push_ring(std::vector<Nanos>& ring, std::size_t& next, std::size_t capacity, Nanos value) {
  if (ring.size() < capacity) {
    ring.push_back(value);
  } else {
    ring[next] = value;
  }
  next = (next + 1) % capacity;
}

/// The second-largest value of `values` once it holds at least `min_count` of them, else
/// the largest (0 for none): a recent worst case that one outlier does not set.
Nanos second_largest(const std::vector<Nanos>& values, std::size_t min_count) {
  Nanos worst{0}, second{0};
  for (const Nanos v : values) {
    if (v > worst) {
      second = worst;
      worst = v;
    } else if (v > second) {
      second = v;
    }
  }
  return values.size() >= min_count ? second : worst;
}

/// The config, once validate() has accepted it (members are initialised from it).
const AdaptiveConfig& checked(const AdaptiveConfig& config, const FixedStepConfig& sim) {
  validate(sim);
  validate(config);
  return config;
}

}  // namespace

void validate(const AdaptiveConfig& c) {
  using detail::config_error;
  using detail::format_value;
  constexpr Nanos hour{3'600'000'000'000};
  const auto at_least = [](std::string_view field, std::int64_t value, std::int64_t least) {
    if (value < least)
      config_error(std::string{"AdaptiveConfig::"} + std::string{field}, ">= " + std::to_string(least),
                   format_value(value));
  };
  const auto nanos = [&](std::string_view field, Nanos value, bool positive) {
    if (value < Nanos::zero() || (positive && value == Nanos::zero()) || value > hour)
      config_error(std::string{"AdaptiveConfig::"} + std::string{field},
                   positive ? "> 0 and at most an hour" : ">= 0 and at most an hour", format_value(value));
  };
  const auto real = [](std::string_view field, double value, bool ok, std::string_view rule) {
    if (!ok || !std::isfinite(value))
      config_error(std::string{"AdaptiveConfig::"} + std::string{field}, rule, format_value(value));
  };
  nanos("initial_interval", c.initial_interval, true);  // clamped to [min, max]
  nanos("min_interval", c.min_interval, true);
  nanos("max_interval", c.max_interval, true);
  if (c.max_interval < c.min_interval)
    config_error("AdaptiveConfig::max_interval", ">= min_interval (" + format_value(c.min_interval) + ")",
                 format_value(c.max_interval));
  real("widen_factor", c.widen_factor, c.widen_factor > 1.0, "> 1");
  at_least("shrink_window", c.shrink_window, 1);
  real("shrink_fraction", c.shrink_fraction, c.shrink_fraction > 0.0 && c.shrink_fraction <= 1.0, "in (0, 1]");
  at_least("hitch_frames", c.hitch_frames, 1);
  nanos("refresh_period", c.refresh_period, false);
  nanos("vblank_margin", c.vblank_margin, false);
  nanos("late_tolerance", c.late_tolerance, false);
  at_least("render_history", c.render_history, 1);
  at_least("pipeline_frames", c.pipeline_frames, 1);
  real("mixed_cadence_loss", c.mixed_cadence_loss, true, "finite");
  nanos("mixed_cadence_over", c.mixed_cadence_over, false);
  real("mixed_lead_percentile", c.mixed_lead_percentile,
       c.mixed_lead_percentile > 0.0 && c.mixed_lead_percentile <= 100.0, "in (0, 100]");
  real("mixed_lead_percentile_queued", c.mixed_lead_percentile_queued,
       c.mixed_lead_percentile_queued > 0.0 && c.mixed_lead_percentile_queued <= 100.0, "in (0, 100]");
  real("mixed_margin", c.mixed_margin, c.mixed_margin >= 1.0, ">= 1");
  at_least("deep_history", c.deep_history, 1);
  nanos("present_margin", c.present_margin, false);
  at_least("misses_to_widen", c.misses_to_widen, 1);
  real("shrink_percentile", c.shrink_percentile, c.shrink_percentile > 0.0 && c.shrink_percentile <= 100.0,
       "in (0, 100]");
  at_least("failed_shrink_frames", c.failed_shrink_frames, 0);
  at_least("max_backoff", c.max_backoff, 0);
  if (c.max_backoff > 20) config_error("AdaptiveConfig::max_backoff", "<= 20", format_value(std::int64_t{c.max_backoff}));
  real("spiral_ratio", c.spiral_ratio, c.spiral_ratio > 0.0, "> 0");
  real("catch_up", c.catch_up, true, "finite");
  nanos("max_lag", c.max_lag, false);
  nanos("catch_up_within", c.catch_up_within, false);
}

AdaptivePolicy::AdaptivePolicy(AdaptiveConfig config, FixedStepConfig sim, std::string_view name)
    : Pacer{name},
      config_{checked(config, sim)},
      sim_{sim},
      interval_{std::clamp(config.initial_interval, config.min_interval, config.max_interval)} {
  window_.reserve(static_cast<std::size_t>(std::max(config_.shrink_window, 1)));
  period_ = config_.refresh_period;
  if (period_ > Nanos::zero()) grid_ = VblankGrid{period_, config_.vblank_phase};
  planned_gap_ = interval_;
}

TimeAccount AdaptivePolicy::account() const {
  TimeAccount a;
  a.elapsed = frame_end_ - clock_.start();
  a.simulated = clock_.simulated();
  a.dropped = clock_.dropped();
  a.pending = a.elapsed - a.simulated - a.dropped;
  return a;
}

FramePlan AdaptivePolicy::on_begin_frame(Nanos now) {
  if (config_.display_aware && !smooth_ &&
      ((!started_ && config_.refresh_period > Nanos::zero()) || (started_ && display_seen_))) {
    smooth_ = true;
    if (started_) {
      // Switching at a frame boundary: the seed planned this frame for frame_end_.
      display_next_ = frame_end_;
      start_next_ = frame_end_;
      shown_prev_ = frame_end_ - interval_;
    }
  }
  if (smooth_) return smooth_begin(now);
  FramePlan plan;
  if (!started_) {
    // The simulation starts at the first frame: "render with proportion 1.0 (the world at time 0)".
    started_ = true;
    clock_ = FixedStepClock{now, sim_.step};
    frame_end_ = now;
  } else if (busy_measured_) {
    consider_shrink(busy_, cost_at(pre_hitch_interval_));
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

void AdaptivePolicy::on_end_render(Nanos now) {
  render_cost_ = now - frame_start_;
  update_mark_ = now;
  update_cost_ = Nanos::zero();
  if (!smooth_) {
    widen_if_overrun(now);
    return;
  }
  render_end_ = now;
  const auto history = static_cast<std::size_t>(std::max(config_.render_history, 1));
  push_ring(renders_, renders_next_, history, render_cost_);
  // The second-longest recent render: one hitch in the history is late whatever the
  // estimate, and counting it would start every frame early for a whole history (the
  // loop idling in present holds); a new, lasting level shows up after two frames.
  std::vector<Nanos>& sorted = sorted_renders_;  // reused: no allocation per frame
  sorted.assign(renders_.begin(), renders_.end());
  std::sort(sorted.begin(), sorted.end());
  const Nanos longest = sorted.size() >= 8 ? sorted[sorted.size() - 2] : sorted.back();
  lead_ = longest + config_.present_margin;
  const auto deep = static_cast<std::size_t>(std::max(config_.deep_history, 2));
  push_ring(deep_renders_, deep_next_, deep, render_cost_);
  std::vector<Nanos>& deep_sorted = sorted_deep_;
  deep_sorted.assign(deep_renders_.begin(), deep_renders_.end());
  const auto second = deep_sorted.end() - (deep_sorted.size() >= 8 ? 2 : 1);
  std::nth_element(deep_sorted.begin(), second, deep_sorted.end());
  deep_lead_ = std::max(lead_, *second + config_.present_margin);
  // Mixed cadence: plan for a typical render (a long one is shown a vblank late rather
  // than every frame idling in a held present).
  const double pct = latched() && config_.queued_presents ? config_.mixed_lead_percentile_queued
                                                          : config_.mixed_lead_percentile;
  const auto typical =
      static_cast<std::size_t>(std::max(1.0, std::ceil(pct / 100.0 * static_cast<double>(sorted.size())))) - 1;
  typical_lead_ = sorted[std::min(typical, sorted.size() - 1)] + config_.present_margin;
  if (frame_index() == 1) {
    // The first frame was not planned: it is shown where the display puts it.
    display_cur_ = grid_at_or_after(now);
  } else if (now > display_cur_ + (latched() ? Nanos::zero() : lateness_tolerance())) {
    missed_ = true;  // presented after its planned display: shown late
  }
}

void AdaptivePolicy::on_present_call(Nanos call) {
  render_cost_ += call;  // CPU work of the frame (busy time), after the hold
  present_call_ += call;
}

void AdaptivePolicy::on_observe_wake(Nanos deadline, Nanos woke) {
  push_ring(wakes_, wakes_next_, 32, std::max(woke - deadline, Nanos::zero()));
  // The second-worst recent wake: one preempted sleep does not loosen every judgement.
  wake_tolerance_ = second_largest(wakes_, 2);
}

Nanos AdaptivePolicy::lateness_tolerance() const { return config_.late_tolerance + wake_tolerance_; }

void AdaptivePolicy::follow_grid() {
  const Nanos p = grid_.period();
  if (p == period_ || p <= Nanos::zero() || period_ <= Nanos::zero()) return;
  // The interval keeps its whole number of periods (the mixed cadence's is free).
  const std::int64_t n = std::max<std::int64_t>(1, (interval_.count() + period_.count() / 2) / period_.count());
  period_ = p;
  if (!mixed_) interval_ = n * p;
}

void AdaptivePolicy::on_end_update(Nanos now) {
  update_cost_ += now - update_mark_;
  if (!smooth_) {
    widen_if_overrun(now);
    return;
  }
  frame_update_cost_ += now - update_started_;
}

void AdaptivePolicy::on_observe_display(std::int64_t frame, Nanos display) {
  if (period_ > Nanos::zero()) {
    // A vblank: the first anchors the grid; on a latching display the rest lock it.
    grid_.observe(display, config_.vblank_latch);
    follow_grid();
  }
  display_seen_ = true;
  if (!smooth_) return;
  // Shown later than planned (a queue behind the display): the frames in flight are late
  // too. Plan the next one after them, and count it as a miss. Late means a vblank later
  // on a latching display (reported times scatter around the vblank), past the lateness
  // tolerance on the others.
  const auto slot = static_cast<std::size_t>(frame) % planned_.size();
  const Nanos tolerance = latched() ? period_ / 2 : lateness_tolerance();
  if (planned_frame_[slot] != frame || display <= planned_[slot] + tolerance) return;
  if (latched()) display = grid_snap(display);
  const std::int64_t ahead = frame_index() - frame;  // frames started after `frame`, this one included
  late_floor_ = std::max(late_floor_, display + interval_ * ahead);
  missed_ = true;
  // The current frame itself (a present that woke late, a queue): its real display time
  // sets the lag the next frame continues from.
  if (frame == frame_index() - 1) observed_late_ = display;
}

Nanos AdaptivePolicy::cost_at(Nanos interval) const {
  // The frame's render plus its updates, had it covered `interval` of simulation:
  // a wide interval runs more updates, so raw busy time overstates what a narrow one needs.
  if (steps_this_frame_ == 0) return render_cost_;
  const Nanos per_update = update_cost_ / steps_this_frame_;
  const auto steps = (interval + sim_.step - Nanos{1}) / sim_.step + 1;  // ceil(interval / step), + the step just past the end
  return render_cost_ + per_update * steps;
}

void AdaptivePolicy::widen_if_overrun(Nanos now) {
  const Nanos frame_time = now - frame_start_;
  if (frame_time <= interval_) return;
  const Nanos before = interval_;
  // "An interval we have a chance of hitting".
  set_interval(scale(frame_time, config_.widen_factor));
  if (interval_ == before) return;  // already at the floor rate
  note_event(event_widen);
  if (!hitch_pending_) {
    hitch_pending_ = true;
    pre_hitch_interval_ = before;
  }
  hitch_seen_ = -1;  // the widening frame itself is the hitch: judge the frames after it
  hitch_misfits_ = 0;
}

void AdaptivePolicy::set_interval(Nanos interval) {
  interval_ = std::clamp(interval, config_.min_interval, config_.max_interval);
  frame_end_ = frame_start_ + interval_;
  frames_since_change_ = 0;
}

Action AdaptivePolicy::on_next(Nanos now) {
  if (smooth_) return smooth_next(now);
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

void AdaptivePolicy::show_world_target(FramePlan& plan) const {
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

void AdaptivePolicy::clamp_stall() {
  // A stall (a debugger break, a suspended laptop): more simulation owed than the clamp.
  const Nanos gap = world_target() - clock_.current();
  if (sim_.debt == DebtPolicy::discard && sim_.stall_clamp > Nanos::zero() && gap > sim_.stall_clamp) {
    const Nanos debt = gap - sim_.stall_clamp;
    clock_.drop(debt);
    note_dropped(debt);
    note_event(event_stall_clamp);
  }
}

void AdaptivePolicy::hit_step_cap() {
  // Out of updates for this frame while still short of the target.
  note_event(event_step_cap);
  if (sim_.debt == DebtPolicy::discard) {
    const Nanos debt = world_target() - clock_.current();
    clock_.drop(debt);
    note_dropped(debt);
  }
}

void AdaptivePolicy::measure_busy(Nanos now) {
  // The frame's busy time ends at its first wait-or-render decision.
  if (busy_measured_) return;
  busy_measured_ = true;
  busy_ = now - frame_start_;
}

void AdaptivePolicy::consider_shrink(Nanos busy, Nanos cost_at_pre_hitch) {
  const auto window = static_cast<std::size_t>(std::max(config_.shrink_window, 1));
  push_ring(window_, window_next_, window, busy);
  ++frames_since_change_;

  if (hitch_pending_ && hitch_seen_ < 0) {
    hitch_seen_ = 0;
  } else if (hitch_pending_) {
    ++hitch_seen_;
    if (scale(cost_at_pre_hitch, config_.widen_factor) > pre_hitch_interval_) ++hitch_misfits_;
    // A hitch often drags a second, smaller overrun behind it (a GC, a stream-in): the
    // change is lasting only when most of the frames after the widen need it.
    if (hitch_misfits_ * 2 > config_.hitch_frames) {
      hitch_pending_ = false;
    } else if (hitch_seen_ >= config_.hitch_frames) {
      hitch_pending_ = false;
      if (config_.shrink && pre_hitch_interval_ < interval_) {
        interval_ = pre_hitch_interval_;
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
  if (next - target < Nanos{50'000}) next = target;
  interval_ = next;
  frames_since_change_ = 0;
  note_event(event_shrink);
}

// ---------------------------------------------------------------- display-aware mode

Nanos AdaptivePolicy::grid_at_or_after(Nanos t) const {
  if (period_ <= Nanos::zero()) return t;
  return grid_.at_or_after(t);
}

Nanos AdaptivePolicy::grid_snap(Nanos t) const {
  if (period_ <= Nanos::zero()) return t;
  // A vblank plus whole periods may be a few ns off the locked grid: its vblank is the
  // one within a quarter period. Off the grid (immediate: a late present), the next
  // vblank more than half a period on.
  return grid_.at_or_after(t - (latched() ? period_ / 4 : period_ / 2));
}

Nanos AdaptivePolicy::quantize_up(Nanos interval) const {
  if (period_ <= Nanos::zero()) return std::clamp(interval, config_.min_interval, config_.max_interval);
  const std::int64_t p = period_.count();
  std::int64_t n = (interval.count() + p - 1) / p;
  const std::int64_t lo = std::max<std::int64_t>(1, (config_.min_interval.count() + p - 1) / p);
  const std::int64_t hi = std::max(lo, config_.max_interval.count() / p);
  n = std::clamp(n, lo, hi);
  return Nanos{n * p};
}

Nanos AdaptivePolicy::start_lead() const {
  // Fixed refresh: start on a vblank, the whole periods the render needs before the display.
  // Free refresh (immediate, VRR): start the deep render estimate ahead, so a rare long
  // render (seen in the long history) still makes its planned present; the loop cannot
  // start before the previous present anyway.
  if (!on_grid()) return deep_lead_;
  // A grid whose presents show when made (immediate:HZ): as far ahead as the previous
  // frame's work allows (a period less its present call and updates), so a long render
  // still makes its vblank's time, and no less than the render estimate.
  if (!config_.vblank_latch) return std::max(lead_, fixed_lead(1) - post_lead_);
  // pipeline_frames intervals ahead while a frame has recently needed it; one once none
  // has for shallow_after frames (a period less latency).
  const bool needed = config_.shallow_after <= 0 || frame_index() - last_deep_frame_ <= config_.shallow_after;
  return fixed_lead(needed ? std::max(config_.pipeline_frames, 1) : 1);
}

Nanos AdaptivePolicy::fixed_lead(int depth) const {
  const std::int64_t p = period_.count();
  const std::int64_t k = std::max<std::int64_t>(1, (lead_.count() + p - 1) / p);
  return std::max(Nanos{k * p}, interval_ * depth);
}

Nanos AdaptivePolicy::percentile_busy(double pct) const {
  std::vector<Nanos> sorted = busy_ring_;
  if (sorted.empty()) return Nanos::zero();
  std::sort(sorted.begin(), sorted.end());
  const double rank = std::ceil(pct / 100.0 * static_cast<double>(sorted.size()));
  const auto i = static_cast<std::size_t>(std::clamp(rank, 1.0, static_cast<double>(sorted.size()))) - 1;
  return sorted[i];
}

void AdaptivePolicy::smooth_set_interval(Nanos interval, unsigned event) {
  if (interval == interval_) return;
  interval_ = interval;
  frames_since_change_ = 0;
  note_event(event);
}

FramePlan AdaptivePolicy::smooth_begin(Nanos now) {
  FramePlan plan;
  if (!started_) {
    started_ = true;
    clock_ = FixedStepClock{now, sim_.step};
    if (period_ > Nanos::zero()) {
      // Whole refresh periods: the nearest multiple of the initial interval, at least one.
      const std::int64_t p = period_.count();
      const Nanos rounded{std::max<std::int64_t>(1, (interval_.count() + p / 2) / p) * p};
      const Nanos q = quantize_up(rounded);
      if (q != interval_) note_event(event_quantize);
      interval_ = q;
    }
    display_cur_ = now;
    display_next_ = now;
    start_next_ = now;
    frame_end_ = now;
    planned_gap_ = interval_;
    plan.planned_start = now;
    plan.alpha = 1.0;
    plan.animation_time = now;
  } else {
    smooth_after_frame();
    display_cur_ = display_next_;
    const auto slot = static_cast<std::size_t>(frame_index()) % planned_.size();
    planned_[slot] = display_cur_;
    planned_frame_[slot] = frame_index();
    frame_end_ = display_cur_;
    plan.planned_start = start_next_;
    show_world_target(plan);
    // FIFO latches at the first vblank at or after the present: hold it past the
    // vblank before the planned one, so an early render is not shown a period early.
    // A FIFO queue cannot show it before the previous frame's vblank + 1 period: when that
    // is the planned one, present at once (the queue holds it) and keep the CPU busy.
    if (!latched()) {
      plan.present_at = display_cur_;  // shown when made: held until its display time
    } else if (config_.queued_presents && display_cur_ <= grid_snap(shown_prev_ + period_)) {
      plan.present_at = Nanos{-1};
    } else {
      // Past the vblank before the planned one by a margin the grid's scatter cannot cross.
      const Nanos margin = std::clamp(std::max(config_.vblank_margin, 4 * grid_.residual()), Nanos{1}, period_ / 4);
      plan.present_at = display_cur_ - period_ + margin;
    }
    planned_gap_ = display_cur_ - shown_prev_;
  }
  plan.sim_previous = clock_.previous();
  plan.sim_current = clock_.current();
  frame_start_ = now;
  render_end_ = now;
  steps_this_frame_ = 0;
  busy_measured_ = false;
  busy_ = Nanos::zero();
  planned_next_ = false;
  missed_ = false;
  observed_late_ = Nanos::min();
  pushed_ = false;
  waited_ = false;
  frame_update_cost_ = Nanos::zero();
  present_call_ = Nanos::zero();
  return plan;
}

Action AdaptivePolicy::smooth_next(Nanos now) {
  if (!planned_next_) {
    planned_next_ = true;
    // The frame that follows is planned one interval after this one's display; a frame
    // shown late moves the cadence (never two frames on one vblank, never a catch-up burst).
    // Latching: shown at a vblank (the one after the render when it missed). Otherwise
    // when presented.
    Nanos shown = missed_ ? (latched() ? grid_at_or_after(render_end_) : render_end_) : display_cur_;
    if (observed_late_ != Nanos::min()) shown = std::max(shown, latched() ? grid_snap(observed_late_) : observed_late_);
    absorb_lag(shown);
    shown_prev_ = shown;
    const bool grid = on_grid();
    const Nanos gap = grid ? period_ : config_.min_interval;
    // Mixed cadence on a fixed refresh: the earliest vblank after this one; the pushes
    // below move it to the first vblank the frame can make. Otherwise one interval on.
    const Nanos due = mixed_ && grid ? display_cur_ + period_ : display_cur_ + interval_;
    // On a grid these are vblanks plus whole periods: each stands for its vblank.
    display_next_ = grid ? std::max({grid_snap(due), grid_snap(shown + gap), grid_snap(late_floor_)})
                         : std::max({due, shown + gap, late_floor_});
    start_next_ = display_next_ - start_lead();
    frame_end_ = display_next_;
    pushes_ = 0;
  }
  for (;;) {
    if (clock_.current() < world_target()) {
      clamp_stall();
      // Spiral guard: updates that cannot keep up with real time get the time left
      // before the next frame's start, at least one update.
      const Nanos per_update = steps_this_frame_ > 0 ? frame_update_cost_ / steps_this_frame_ : Nanos::zero();
      const bool over_budget = spiral_ && steps_this_frame_ > 0 && now + per_update > start_next_;
      if (steps_this_frame_ < sim_.max_steps_per_frame && !over_budget) {
        ++steps_this_frame_;
        clock_.advance(sim_.step);
        update_started_ = now;
        return Action{ActionKind::update, sim_.step, Nanos::zero()};
      }
      hit_step_cap();
    }
    measure_busy(now);
    // Pipelined: the next frame may start late as long as it is still presented by its
    // planned display. When even that is out of reach, plan it one slot later now, so
    // the world it shows is the one of its real display time (at most twice a frame).
    // Judged when the updates are done, not after the wait for the start (which ends
    // within the waiter's error of start_next_ by design).
    const Nanos lead = mixed_ ? typical_lead_ : lead_;
    if (!waited_ && now + lead > display_next_ && pushes_ < 2) {
      ++pushes_;
      pushed_ = true;
      display_next_ = on_grid() ? grid_at_or_after(now + lead) : now + lead;
      start_next_ = display_next_ - start_lead();
      frame_end_ = display_next_;
      continue;  // more simulation time to cover
    }
    break;
  }
  if (now < start_next_) {
    waited_ = true;
    return Action{ActionKind::wait, Nanos::zero(), start_next_};
  }
  // The mixed cadence runs as fast as the costs allow: its plan is to start right away.
  if (mixed_ && !waited_) start_next_ = now;
  return Action{ActionKind::render, Nanos::zero(), Nanos::zero()};
}

void AdaptivePolicy::absorb_lag(Nanos shown) {
  // The current frame shows the world of display_cur_ - lag_ at `shown`: the next one
  // continues from there, then catches up a bounded step per frame.
  if (shown > display_cur_) lag_ += shown - display_cur_;
  if (lag_ <= Nanos::zero()) return;
  double rate = config_.catch_up;
  if (sim_.debt == DebtPolicy::discard && lag_ > config_.max_lag && rate > 0) {
    const Nanos excess = lag_ - config_.max_lag;
    clock_.drop(excess);
    note_dropped(excess);
    lag_ = config_.max_lag;
  }
  if (rate <= 0 && sim_.debt == DebtPolicy::discard) {
    clock_.drop(lag_);
    note_dropped(lag_);
    lag_ = Nanos::zero();
    return;
  }
  if (rate <= 0) rate = 0.25;
  Nanos step = std::max(Nanos{1}, scale(interval_, rate));
  if (config_.catch_up_within > Nanos::zero())
    step = std::max(step, Nanos{static_cast<std::int64_t>(static_cast<double>(lag_.count()) *
                                                          static_cast<double>(interval_.count()) /
                                                          static_cast<double>(config_.catch_up_within.count()))});
  lag_ -= std::min(lag_, step);
}

Nanos AdaptivePolicy::free_interval(Nanos mean_busy) const {
  return std::clamp(scale(mean_busy, config_.mixed_margin), std::max(period_, config_.min_interval),
                    config_.max_interval);
}

bool AdaptivePolicy::prefer_mixed(Nanos even, Nanos free) const {
  if (config_.mixed_cadence_loss <= 0 || config_.mixed_cadence_loss >= 1) return false;
  const double ratio = static_cast<double>(free.count()) / static_cast<double>(even.count());
  return ratio < 1.0 - config_.mixed_cadence_loss && even > config_.mixed_cadence_over;
}

Nanos AdaptivePolicy::recent_busy_mean(std::size_t n) const {
  // The last n busy times (fewer early on), the longest left out.
  n = std::min(n, busy_ring_.size());
  if (n < 2) return Nanos::zero();
  const std::size_t size = busy_ring_.size();
  Nanos sum{0}, longest{0};
  for (std::size_t i = 1; i <= n; ++i) {
    const Nanos b = busy_ring_[(busy_next_ + size - i) % size];
    sum += b;
    longest = std::max(longest, b);
  }
  return (sum - longest) / static_cast<std::int64_t>(n - 1);
}

bool AdaptivePolicy::choose_cadence() {
  const auto window = static_cast<std::size_t>(std::max(config_.shrink_window, 1));
  if (config_.mixed_cadence_loss <= 0 || config_.mixed_cadence_loss >= 1 || busy_ring_.size() < window)
    return mixed_;
  Nanos sum{0};
  for (const Nanos b : busy_ring_) sum += b;
  const Nanos mean = sum / static_cast<std::int64_t>(busy_ring_.size());
  // The steady choice: whole periods over the mean with the widen margin; on a free
  // display, the interval the percentile shrink rule would give.
  const Nanos even = period_ > Nanos::zero()
                         ? quantize_up(scale(mean, config_.widen_factor))
                         : std::clamp(scale(percentile_busy(config_.shrink_percentile), config_.widen_factor),
                                      config_.min_interval, config_.max_interval);
  const Nanos free = free_interval(mean);
  // Enter when whole periods lose more than the allowed share of the rate; leave (to
  // whole periods) when they lose less than half of it: no flapping at the threshold.
  const double ratio = static_cast<double>(free.count()) / static_cast<double>(even.count());
  // On a free display, entering compares with the interval in force (the shrink rule's
  // hold and backoff have settled it: a rare spike in the window does not count).
  if (!mixed_ && prefer_mixed(period_ > Nanos::zero() ? even : interval_, free)) {
    mixed_ = true;
    smooth_set_interval(free, free > interval_ ? event_widen : event_shrink);
  } else if (mixed_ && (ratio >= 1.0 - config_.mixed_cadence_loss / 2 || even <= config_.mixed_cadence_over)) {
    mixed_ = false;
    smooth_set_interval(even, even > interval_ ? event_widen : event_shrink);
    busy_ring_.clear();
    busy_next_ = 0;
    return false;
  } else if (mixed_) {
    // Follow the mean, ignoring moves under 5% (no flapping).
    const Nanos diff = free > interval_ ? free - interval_ : interval_ - free;
    if (diff * 20 > interval_) smooth_set_interval(free, free > interval_ ? event_widen : event_shrink);
  }
  return mixed_;
}

void AdaptivePolicy::smooth_after_frame() {
  // Runs at the start of a frame, over the one that just ended.
  const std::int64_t frame = frame_index() - 1;
  // CPU work only: the render plus the updates (the present hold between them is not busy).
  const Nanos busy = render_cost_ + frame_update_cost_;
  // The work after a present (its call, then the updates): the second-longest of the last
  // 32, + present_margin.
  push_ring(post_work_, post_next_, 32, present_call_ + frame_update_cost_);
  post_lead_ = config_.present_margin + second_largest(post_work_, 8);
  const auto window = static_cast<std::size_t>(std::max(config_.shrink_window, 1));
  push_ring(busy_ring_, busy_next_, window, busy);
  ++frames_since_change_;

  // Spiral detection over a decaying sum: update CPU time against simulated time.
  update_cost_sum_ += frame_update_cost_;
  update_sim_sum_ += sim_.step * steps_this_frame_;
  if (update_sim_sum_ > Nanos{1'000'000'000}) {
    update_cost_sum_ /= 2;
    update_sim_sum_ /= 2;
  }
  spiral_ = update_sim_sum_ > Nanos::zero() &&
            static_cast<double>(update_cost_sum_.count()) >=
                config_.spiral_ratio * static_cast<double>(update_sim_sum_.count());

  if (choose_cadence()) {
    // The free cadence follows the mean cost; a frame that cannot make its vblank is
    // pushed to the next one and shows that vblank's world: pushes are not misses here.
    miss_history_ = 0;
    missed_busy_.clear();
    hitch_pending_ = false;
    return;
  }

  // Overruns: a frame that missed its planned display (or whose successor had to be
  // pushed) is a miss. One miss is a hitch; consecutive misses are a lasting change.
  const bool miss = missed_ || pushed_;
  miss_history_ = (miss_history_ << 1) | (miss ? 1u : 0u);
  if (miss) missed_busy_.push_back(busy);
  // A frame that missed, or would have missed starting one interval ahead, needs the depth.
  if (missed_ || (period_ > Nanos::zero() && render_cost_ + config_.present_margin > fixed_lead(1)))
    last_deep_frame_ = frame;
  const int recent = std::popcount(miss_history_ & 0xFu);  // misses among the last 4 frames
  if (recent == 0) missed_busy_.clear();
  // A queue absorbs costs that vary around the interval, not a mean above it: when the
  // recent frames (the longest left out) cost more than the interval on average, the
  // pushes will not stop by themselves.
  const bool overloaded = miss && recent_busy_mean(8) > interval_;
  if (miss && (recent >= std::max(config_.misses_to_widen, 1) || overloaded)) {
    // The lasting level is the cheapest of the missing frames (a hitch among them is not).
    const Nanos lasting = *std::min_element(missed_busy_.begin(), missed_busy_.end());
    // One period more on a grid; on a free display at least the lateness tolerance (no
    // widening by nanoseconds).
    const Nanos step_up = period_ > Nanos::zero() ? interval_ + period_ : interval_ + lateness_tolerance();
    const Nanos wider = quantize_up(std::max(step_up, scale(lasting, config_.widen_factor)));
    const Nanos free = free_interval(std::max(lasting, recent_busy_mean(8)));
    if (wider > interval_ && prefer_mixed(wider, free)) {
      // Whole periods would cost too much of the rate: the mixed cadence at once.
      mixed_ = true;
      smooth_set_interval(free, event_widen);
      miss_history_ = 0;
      missed_busy_.clear();
      busy_ring_.clear();
      busy_next_ = 0;
      return;
    }
    if (wider > interval_) {
      if (frame - last_shrink_frame_ <= config_.failed_shrink_frames) backoff_ = std::min(backoff_ + 1, config_.max_backoff);
      if (!hitch_pending_) pre_hitch_interval_ = interval_;
      hitch_pending_ = true;
      hitch_seen_ = 0;
      hitch_max_busy_ = Nanos::zero();
      smooth_set_interval(wider, event_widen);
    }
    miss_history_ = 0;
    missed_busy_.clear();
    return;
  }
  if (!config_.shrink) return;

  // Quick recovery: the frames after a widen would all have fit the old interval.
  if (hitch_pending_) {
    hitch_max_busy_ = std::max(hitch_max_busy_, busy);
    ++hitch_seen_;
    if (scale(hitch_max_busy_, config_.widen_factor) > pre_hitch_interval_) {
      hitch_pending_ = false;
    } else if (hitch_seen_ >= config_.hitch_frames) {
      hitch_pending_ = false;
      smooth_set_interval(pre_hitch_interval_, event_shrink);
      busy_ring_.clear();
      busy_next_ = 0;
      return;
    }
  }

  // Shrink on the busy-time percentile with the widen margin, one period at a time,
  // after a hold that doubles with every failed shrink.
  if (busy_ring_.size() < window) return;
  const std::int64_t hold = static_cast<std::int64_t>(config_.shrink_window) << backoff_;
  if (frames_since_change_ < hold) return;
  Nanos need = scale(percentile_busy(config_.shrink_percentile), config_.widen_factor);
  if (latched() && config_.queued_presents && config_.pipeline_frames > 1) {
    // A FIFO queue absorbs costs that vary around the interval (frames start up to
    // pipeline_frames intervals ahead): the mean with the mixed cadence's margin must fit,
    // and the tail within the queue's depth.
    Nanos sum{0};
    for (const Nanos b : busy_ring_) sum += b;
    const Nanos mean = sum / static_cast<std::int64_t>(busy_ring_.size());
    need = std::max(scale(mean, config_.mixed_margin), need / config_.pipeline_frames);
  }
  Nanos shorter;
  if (period_ > Nanos::zero()) {
    shorter = quantize_up(interval_ - period_);
    if (shorter >= interval_ || need > shorter) return;
  } else {
    shorter = std::clamp(need, config_.min_interval, config_.max_interval);
    if (interval_ - shorter < Nanos{50'000}) return;
  }
  smooth_set_interval(shorter, event_shrink);
  last_shrink_frame_ = frame;
}

}  // namespace pacer
