#include "pacer/adaptive.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "ring.hpp"

namespace pacer {

using detail::percentile_index;
using detail::push_ring;
using detail::median_in_place;
using detail::newest_of_ring;
using detail::second_largest;

std::string_view to_string(AdaptivePolicy::Transition t) {
  using T = AdaptivePolicy::Transition;
  switch (t) {
    case T::none: return "none";
    case T::enter_mixed: return "enter_mixed";
    case T::follow_mean: return "follow_mean";
    case T::follow_cost: return "follow_cost";
    case T::refollow_cost: return "refollow_cost";
    case T::leave_mixed: return "leave_mixed";
    case T::widen: return "widen";
    case T::widen_to_mixed: return "widen_to_mixed";
    case T::absorb_misses: return "absorb_misses";
    case T::forgive_hitch: return "forgive_hitch";
    case T::shrink: return "shrink";
  }
  return "none";
}

AdaptivePolicy::AdaptivePolicy(AdaptiveConfig config, FixedStepConfig sim, std::string_view name)
    : AdaptiveLiteralPolicy{config, sim, name} {
  period_ = config_.refresh_period;
  if (period_ > Nanos::zero()) grid_ = VblankGrid{period_, config_.vblank_phase};
  planned_gap_ = interval_;
  planned_frame_.fill(-1);
  if (vrr()) cadence_ = Cadence::free;
}

AdaptivePolicy::Depth AdaptivePolicy::depth() const {
  const bool needed = config_.shallow_after <= 0 || frame_index() - last_deep_frame_ <= config_.shallow_after;
  return needed ? Depth::deep : Depth::shallow;
}

// ---------------------------------------------------------------- the protocol

FramePlan AdaptivePolicy::on_begin_frame(Nanos now) {
  // Mode: seed -> display, once, when the display becomes known.
  if (mode_ == Mode::seed && config_.display_aware &&
      ((!started_ && config_.refresh_period > Nanos::zero()) || (started_ && display_seen_))) {
    mode_ = Mode::display;
    if (started_) {
      // Switching at a frame boundary: the seed planned this frame for frame_end_.
      display_next_ = frame_end_;
      start_next_ = frame_end_;
      shown_prev_ = frame_end_ - interval_;
      if (seed_hitch_.pending) hitch_ = HitchWatch{seed_hitch_.pre_interval, seed_hitch_.seen, seed_hitch_.misfits};
    }
  }
  if (mode_ == Mode::display) return display_begin(now);
  // The seed's shrink rule reads the frame's busy time here, counted as in after_frame.
  if (busy_measured_) busy_ = busy_with_gpu(busy_);
  return AdaptiveLiteralPolicy::on_begin_frame(now);
}

void AdaptivePolicy::on_end_render(Nanos now) {
  if (mode_ == Mode::seed) {
    AdaptiveLiteralPolicy::on_end_render(now);
    return;
  }
  render_cost_ = now - frame_start_;
  render_end_ = now;
  update_render_estimates();
  if (off_thread_) {
    // Handed to the render thread: it starts once done with the previous frame, works
    // about the render estimate, and is busy until the present it holds for.
    const Nanos work = off_thread_lead() - config_.present_margin;
    render_free_ = std::max(std::max(now, render_free_) + work, present_at_);
  }
  // The GPU takes the frame's work after the previous frame's (gpu_queue_plan): a held
  // present waited for it in the render (the host's wait_drawn), else it ends about a GPU
  // time after the later of the render's end and the previous frame's work.
  gpu_free_ = present_at_ >= Nanos::zero() ? now : std::max(now, gpu_free_) + last_gpu_;
  if (frame_index() == 1) {
    // The first frame was not planned: it is shown where the display puts it.
    display_cur_ = grid_at_or_after(now);
  } else if (now + call_lead() > display_cur_ + (latched() ? Nanos::zero() : lateness_tolerance())) {
    frame_.missed = true;  // presented after its planned display: shown late
  }
}

void AdaptivePolicy::on_present_call(Nanos call) {
  AdaptiveLiteralPolicy::on_present_call(call);
  frame_.present_call += call;
}

void AdaptivePolicy::on_observe_gpu(std::int64_t frame, Nanos gpu) {
  if (frame < last_gpu_frame_) return;  // an older frame's, reported late
  // Two reports for one frame (a render thread's ready time and its GPU time): the longer.
  const Nanos before = frame == last_gpu_frame_ ? last_gpu_ : Nanos::zero();
  last_gpu_frame_ = frame;
  last_gpu_ = std::max({gpu, before, Nanos::zero()});
}

void AdaptivePolicy::on_end_update(Nanos now) {
  if (mode_ == Mode::seed) {
    AdaptiveLiteralPolicy::on_end_update(now);
    return;
  }
  frame_.update_cost += now - frame_.update_started;
}

Action AdaptivePolicy::on_next(Nanos now) {
  if (mode_ == Mode::seed) return AdaptiveLiteralPolicy::on_next(now);
  return display_next(now);
}

void AdaptivePolicy::on_observe_wake(Nanos deadline, Nanos woke) {
  push_ring(wakes_, wakes_next_, static_cast<std::size_t>(config_.wake_history), std::max(woke - deadline, Nanos::zero()));
  // The second-worst recent wake: one preempted sleep does not loosen every judgement.
  wake_tolerance_ = second_largest(wakes_, 2);
}

Nanos AdaptivePolicy::lateness_tolerance() const {
  // VRR below its minimum rate: a present that meets a repeated frame's scan-out waits for
  // it (at most one shortest refresh); that is the panel's doing, not a miss.
  const Nanos repeat = below_vrr_range() ? config_.min_interval : Nanos::zero();
  return config_.late_tolerance + wake_tolerance_ + repeat;
}

void AdaptivePolicy::on_observe_display(std::int64_t frame, Nanos display) {
  if (period_ > Nanos::zero()) {
    // A vblank: the first anchors the grid; on a latching display the rest lock it.
    grid_.observe(display, config_.vblank_latch);
    follow_grid();
  }
  display_seen_ = true;
  if (mode_ == Mode::seed) return;
  // Shown later than planned (a queue behind the display): the frames in flight are late
  // too. Plan the next one after them, and count it as a miss. Late means a vblank later
  // on a latching display (reported times scatter around the vblank), past the lateness
  // tolerance on the others.
  const auto slot = static_cast<std::size_t>(frame) % kPlanSlots;
  // Shown when presented (immediate, VRR): the current frame's display, whatever the
  // tolerance, is where the next frame's world continues from (plan_next_frame).
  if (!latched() && frame == frame_index() - 1 && planned_frame_[slot] == frame) frame_.observed_display = display;
  const Nanos tolerance = latched() ? period_ / 2 : lateness_tolerance();
  if (planned_frame_[slot] != frame || display <= planned_[slot] + tolerance) return;
  if (latched()) display = grid_snap(display);
  // The frames started after `frame`, plus the one about to be planned (frame_index()).
  const std::int64_t ahead = frame_index() - frame;
  late_floor_ = std::max(late_floor_, late_floor_after(frame, display, ahead));
  frame_.missed = true;
  // The current frame itself (a present that woke late, a queue): its real display time
  // sets the lag the next frame continues from.
  if (frame == frame_index() - 1) frame_.observed_display = display;
}

Nanos AdaptivePolicy::late_floor_after(std::int64_t frame, Nanos display, std::int64_t ahead) const {
  // The frames after `frame` (the last of the `ahead` is the one about to be planned), each
  // one current interval on: as if every frame in flight were as late as `frame`.
  const Nanos plain = display + interval_ * ahead;
  if (!config_.late_floor_in_flight) return plain;
  // The frames in flight, each at its own planned display or one queue slot after the one
  // before, whichever is later: a slot is a period on a grid (else min_interval: VRR's
  // fastest refresh), or the GPU's (a render thread's) time per frame where that is longer.
  // Then one interval for the frame about to be planned, and never later than the plain floor.
  const Nanos slot_time = std::max(on_grid() ? period_ : config_.min_interval, last_gpu_);
  Nanos shown = display;
  for (std::int64_t f = frame + 1; f < frame + ahead; ++f) {
    const auto slot = static_cast<std::size_t>(f) % kPlanSlots;
    if (planned_frame_[slot] != f) return plain;  // a plan forgotten (more in flight than slots)
    shown = std::max(planned_[slot], shown + slot_time);
  }
  return std::min(plain, shown + interval_);
}

void AdaptivePolicy::follow_grid() {
  const Nanos p = grid_.period();
  if (p == period_ || p <= Nanos::zero() || period_ <= Nanos::zero()) return;
  // The interval keeps its whole number of periods (the mixed cadence's is free).
  const std::int64_t n = std::max<std::int64_t>(1, (interval_.count() + period_.count() / 2) / period_.count());
  period_ = p;
  if (cadence_ == Cadence::even) interval_ = n * p;
}

// ---------------------------------------------------------------- estimates and the grid

void AdaptivePolicy::update_render_estimates() {
  const auto history = static_cast<std::size_t>(std::max(config_.render_history, 1));
  // A frame takes as long as the slower of its CPU render and the GPU's work (the latest
  // GPU time reported: a frame or two old); busy time counts it too (busy_counts_gpu).
  const Nanos sample = std::max(render_cost_, last_gpu_);
  push_ring(renders_, renders_next_, history, sample);
  std::vector<Nanos>& sorted = sorted_renders_;  // reused: no allocation per frame
  sorted.assign(renders_.begin(), renders_.end());
  std::sort(sorted.begin(), sorted.end());
  const Nanos median = sorted[sorted.size() / 2];  // of every recent render, hitches included
  leave_out_past_burst(median);
  // The second-longest recent render: one hitch in the history is late whatever the
  // estimate, and counting it would start every frame early for a whole history (the
  // loop idling in present holds); a new, lasting level shows up after two frames.
  const auto outlier_after = static_cast<std::size_t>(config_.estimate_outlier_after);
  const Nanos longest = sorted.size() >= outlier_after ? sorted[sorted.size() - 2] : sorted.back();
  lead_ = longest + config_.present_margin;
  longest_lead_ = sorted.back() + config_.present_margin;
  update_deep_lead(sample);
  // Mixed cadence: plan for a typical render (a long one is shown a vblank late rather
  // than every frame idling in a held present); on a FIFO queue a longer one.
  // VRR: the same, on vrr_lead_percentile (a longer render is shown when it is ready).
  const double pct = cadence_ == Cadence::free                       ? config_.vrr_lead_percentile
                     : latched() && config_.queued_presents ? config_.mixed_lead_percentile_queued
                                                          : config_.mixed_lead_percentile;
  typical_lead_ = sorted[raise_by_hold_budget(percentile_index(pct, sorted.size()))] + config_.present_margin;
  // VRR (and immediate, vrr_predict_on_immediate): moved by what the last render says of the
  // next (vrr_predict_gain); on immediate cap_mixed_lead's floor below may hold it up. On a
  // FIFO queue the move comes after that queue's bounds (below).
  book_render(sample);
  if (!queued_fifo()) typical_lead_ = std::max(Nanos{1}, typical_lead_ + predicted_move(sample, typical_lead_));
  // The mixed cadence on a display that shows presents when made (immediate), with
  // mixed_lead_cap_immediate: the FIFO queue's cap and floor below, without its deep raise.
  if (cadence_ == Cadence::mixed && !latched()) {
    if (config_.mixed_lead_cap_immediate) cap_mixed_lead(sorted, median);
    return;
  }
  // The mixed cadence on a FIFO queue (latched: the display above returned).
  if (cadence_ == Cadence::mixed && config_.queued_presents) bound_queued_mixed_lead(sample, median);
}

void AdaptivePolicy::leave_out_past_burst(Nanos median) {
  // A burst of hitches (at most estimate_hitch_burst renders over estimate_hitch_ratio x the
  // median) counts only while among the last estimate_hitch_memory renders: it stops
  // shaping the plan soon after it ends. More of them are a storm (a level): they count.
  const auto memory = static_cast<std::size_t>(std::max(config_.estimate_hitch_memory, 0));
  std::vector<Nanos>& sorted = sorted_renders_;
  const Nanos limit = memory > 0 ? scale(median, config_.estimate_hitch_ratio) : Nanos::max();
  const auto over = static_cast<std::size_t>(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), limit));
  if (over == 0 || over > static_cast<std::size_t>(std::max(config_.estimate_hitch_burst, 0))) return;
  sorted.clear();
  const std::size_t size = renders_.size();
  for (std::size_t i = 0; i < size; ++i) {
    const std::size_t age = (renders_next_ + size - 1 - i) % size;  // 0: the newest
    if (age < memory || renders_[i] <= limit) sorted.push_back(renders_[i]);
  }
  std::sort(sorted.begin(), sorted.end());
}

void AdaptivePolicy::update_deep_lead(Nanos sample) {
  // The second-longest of the deep history (a rare long render counts here), never below lead_.
  const auto outlier_after = static_cast<std::size_t>(config_.estimate_outlier_after);
  const auto deep = static_cast<std::size_t>(std::max(config_.deep_history, 2));
  push_ring(deep_renders_, deep_next_, deep, sample);
  std::vector<Nanos>& deep_sorted = sorted_deep_;
  deep_sorted.assign(deep_renders_.begin(), deep_renders_.end());
  const auto second = deep_sorted.end() - (deep_sorted.size() >= outlier_after ? 2 : 1);
  std::nth_element(deep_sorted.begin(), second, deep_sorted.end());
  deep_lead_ = std::max(lead_, *second + config_.present_margin);
}

std::size_t AdaptivePolicy::raise_by_hold_budget(std::size_t lead_at) const {
  // VRR within the panel's range, and the mixed cadence of a display that shows presents
  // when made (immediate): the hold budget may raise the plan.
  const double hold_budget = cadence_ == Cadence::free                 ? config_.vrr_hold_budget
                             : cadence_ == Cadence::mixed && !on_grid() ? config_.mixed_hold_budget
                                                                        : 0.0;
  // Below the VRR range only with vrr_hold_below_range, and there without the idle-time
  // credit: the interval's excess over the busy time is the margin the policy put over the
  // cost, which a held present spends, not idle time the panel forces.
  const bool below_range = below_vrr_range();
  if (hold_budget <= 0 || (below_range && !config_.vrr_hold_below_range) || busy_ring_.empty()) return lead_at;
  // Higher while the renders' mean shortfall from the plan (the loop's idle time in held
  // presents) stays within the budget: sorted is ascending, so the shortfall grows with k.
  // The budget: its share of the mean busy time, plus (within the range) the time the loop
  // idles anyway where the interval is longer than that (at the panel's fastest rate, say):
  // holding presents within it costs little rate.
  const std::vector<Nanos>& sorted = sorted_renders_;
  const Nanos busy = mean_busy();
  // vrr_hold_bank: what calm frames saved (or noisy ones overspent), over that many frames.
  const double bank = cadence_ == Cadence::free && config_.vrr_hold_bank > 0 ? hold_bank_ / config_.vrr_hold_bank : 0.0;
  const Nanos idle = below_range ? Nanos::zero() : std::max(interval_ - busy, Nanos::zero());
  const double budget = std::max(0.0, hold_budget * static_cast<double>(busy.count()) +
                                          static_cast<double>(idle.count()) + bank) *
                        static_cast<double>(sorted.size());
  double below = 0;  // sum of sorted[k] - sorted[j] over j < k
  for (std::size_t k = 1; k < sorted.size(); ++k) {
    below += static_cast<double>((sorted[k] - sorted[k - 1]).count()) * static_cast<double>(k);
    if (below > budget) break;
    lead_at = std::max(lead_at, k);
  }
  return lead_at;
}

void AdaptivePolicy::bound_queued_mixed_lead(Nanos sample, Nanos median) {
  // No shorter than mixed_lead_deep_percentile of the deep history, so a render that is
  // common over the last deep_history frames but over the short history's percentile still
  // makes its vblank (each miss is a period of animation error), without the short history's
  // longest render, whose comings and goings move the plan by whole periods (a gap: a stutter);
  if (config_.mixed_lead_deep_percentile > 0) {
    std::vector<Nanos>& deep_sorted = sorted_deep_;
    const auto at = deep_sorted.begin() + static_cast<std::ptrdiff_t>(
                                              percentile_index(config_.mixed_lead_deep_percentile, deep_sorted.size()));
    std::nth_element(deep_sorted.begin(), at, deep_sorted.end());
    typical_lead_ = std::max(typical_lead_, *at + config_.present_margin);
  }
  // and no longer than mixed_lead_ratio_queued x the median recent render (nor shorter than
  // mixed_lead_floor_percentile of the short history): a storm of long renders among short
  // ones would otherwise plan every frame on the long ones, each short frame holding its
  // present (the loop idling: the rate lost), for as long as they stay in the deep history.
  cap_mixed_lead(sorted_renders_, median);
  // Then moved by what the last render says of the next (mixed_predict_gain_queued), past
  // those bounds: after a long render that a short one follows, low enough for the frame to
  // make the next vblank (its present goes no earlier than a period before its vblank, and
  // the next frame starts after that present).
  typical_lead_ = std::max(Nanos{1}, typical_lead_ + predicted_move(sample, typical_lead_));
}

void AdaptivePolicy::cap_mixed_lead(const std::vector<Nanos>& sorted, Nanos median) {
  if (config_.mixed_lead_ratio_queued <= 0) return;
  const Nanos cap = scale(median, config_.mixed_lead_ratio_queued) + config_.present_margin;
  const Nanos floor =
      sorted[percentile_index(config_.mixed_lead_floor_percentile, sorted.size())] + config_.present_margin;
  typical_lead_ = std::max(floor, std::min(typical_lead_, cap));
}

void AdaptivePolicy::book_render(Nanos sample) {
  const bool fifo = queued_fifo() && config_.mixed_predict_gain_queued > 0;
  if (!fifo && (config_.vrr_predict_gain <= 0 || !(vrr() || (config_.vrr_predict_on_immediate && immediate())))) return;
  push_ring(predict_ring_, predict_next_, std::max(static_cast<std::size_t>(config_.vrr_predict_window), kPredictMinRenders), sample);
}

Nanos AdaptivePolicy::predicted_move(Nanos sample, Nanos plan) const {
  // book_render keeps renders only on VRR (and immediate, and a FIFO queue) with the gain
  // above 0: otherwise the ring is empty. The even cadences plan on the longest renders
  // (lead_): no move.
  const std::size_t n = predict_ring_.size();
  const bool planned_typical =
      cadence_ == Cadence::free || (cadence_ == Cadence::mixed && (immediate() || queued_fifo()));
  if (!planned_typical || n < kPredictMinRenders) return Nanos::zero();
  double mean = 0;
  for (const Nanos r : predict_ring_) mean += static_cast<double>(r.count());
  mean /= static_cast<double>(n);
  // The lag-1 autocorrelation of the renders: each one's distance from the mean times the one
  // before's, over their squared distances, oldest first (push_ring: the oldest is at
  // predict_next_ once the ring is full; before, predict_next_ is n and the oldest at 0).
  const std::size_t oldest = predict_next_ % n;
  double covariance = 0;
  double variance = 0;
  double before = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double d = static_cast<double>(predict_ring_[(oldest + k) % n].count()) - mean;
    variance += d * d;
    if (k > 0) covariance += d * before;
    before = d;
  }
  if (variance <= 0) return Nanos::zero();
  const double correlation = std::clamp(covariance / variance, -kPredictMaxCorrelation, kPredictMaxCorrelation);
  const double most = config_.vrr_predict_clamp * static_cast<double>(plan.count());
  const double gain = queued_fifo() ? config_.mixed_predict_gain_queued : config_.vrr_predict_gain;
  const double move = gain * correlation * (static_cast<double>(sample.count()) - mean);
  return Nanos{static_cast<std::int64_t>(std::clamp(move, -most, most))};
}

Nanos AdaptivePolicy::render_lead() const {
  return cadence_ == Cadence::mixed || cadence_ == Cadence::free ? typical_lead_ : lead_;
}

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
  // Free refresh (immediate, VRR): start the deep render estimate ahead, so a rare long
  // render (seen in the long history) still makes its planned present; the loop cannot
  // start before the previous present anyway. VRR at the panel's fastest refresh, where
  // presents queue: up to vrr_ceiling_lead intervals ahead, at most one interval more than
  // the deep estimate (the latency) and at most pipeline_frames (the images in flight).
  // Shown when made, the present is issued call_lead() ahead: the frame starts that much earlier.
  if (!on_grid()) {
    if (vrr_queues() && interval_ <= config_.min_interval) {
      const double frames = std::min(config_.vrr_ceiling_lead, static_cast<double>(std::max(config_.pipeline_frames, 1)));
      return std::max(deep_lead_, std::min(scale(interval_, frames), deep_lead_ + interval_)) + call_lead();
    }
    return deep_lead_ + call_lead();
  }
  // A grid whose presents show when made (immediate:HZ): as far ahead as the previous
  // frame's work allows (a period less its present call and updates), so a long render
  // still makes its vblank's time, and no less than the render estimate.
  if (!config_.vblank_latch) return std::max(lead_, fixed_lead(1) - post_lead_) + call_lead();
  // Fixed refresh: pipeline_frames intervals ahead while a frame has recently needed it
  // (Depth::deep); one once none has for shallow_after frames (a period less latency).
  // The mixed cadence on a FIFO queue runs as fast as the costs allow: always deep (a
  // blocking FIFO loop at that rate queues as deep).
  const bool deep = depth() == Depth::deep || (cadence_ == Cadence::mixed && config_.queued_presents);
  const int frames = std::max(config_.pipeline_frames, 1);
  if (deep) return fixed_lead(frames);
  // Shallow: shallow_pipeline intervals ahead (1.5: a render of up to 2.5 intervals is shown
  // at most one vblank late), never deeper than deep.
  return std::max(fixed_lead(1), scale(interval_, std::min(config_.shallow_pipeline, static_cast<double>(frames))));
}

Nanos AdaptivePolicy::call_lead() const {
  return config_.present_call_lead && !latched() ? call_lead_ : Nanos::zero();
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
  return sorted[percentile_index(pct, sorted.size())];
}

Nanos AdaptivePolicy::mean_busy() const {
  if (busy_ring_.empty()) return Nanos::zero();
  Nanos sum{0};
  for (const Nanos b : busy_ring_) sum += b;
  return sum / static_cast<std::int64_t>(busy_ring_.size());
}

Nanos AdaptivePolicy::trimmed_mean_busy() const {
  if (busy_ring_.empty()) return Nanos::zero();
  std::vector<Nanos> sorted = busy_ring_;
  std::sort(sorted.begin(), sorted.end());
  const auto cut = static_cast<std::size_t>(config_.vrr_trim * static_cast<double>(sorted.size()));
  const std::size_t keep = std::max<std::size_t>(1, sorted.size() - std::min(cut, sorted.size() - 1));
  Nanos sum{0};
  for (std::size_t i = 0; i < keep; ++i) sum += sorted[i];
  return sum / static_cast<std::int64_t>(keep);
}

bool AdaptivePolicy::level_shift(double sigma) const {
  if (config_.level_window <= 0) return true;
  const auto n = static_cast<std::size_t>(config_.level_window);
  if (busy_ring_.empty()) return true;  // nothing to tell by: the miss count decides
  // Fewer frames than the window (the ring restarts after a forgiven hitch or a cadence
  // change): the median of those there are.
  newest_of_ring(busy_ring_, busy_next_, n, busy_scratch_);
  const std::size_t m = busy_scratch_.size();
  const Nanos median = median_in_place(busy_scratch_);
  // A median of m is noisier than a mean of m: vrr_median_error of the mean's standard errors.
  return scale(median, widen_margin()) > interval_ + noise_margin(m, sigma * config_.vrr_median_error);
}

double AdaptivePolicy::noise_sigma() const {
  // VRR: the interval is the window's mean cost, so a recent median or mean over it is as
  // often noise as a change. A robust spread of the window's busy times: 1.4826 x their
  // median absolute deviation (the sigma of normal noise, which hitches hardly move).
  if (cadence_ != Cadence::free || config_.vrr_noise_sigmas <= 0 || busy_ring_.size() < 2) return 0.0;
  std::vector<Nanos>& v = noise_scratch_;  // reused: no allocation per frame
  v.assign(busy_ring_.begin(), busy_ring_.end());
  const Nanos median = median_in_place(v);
  for (Nanos& b : v) b = b > median ? b - median : median - b;
  return 1.4826 * static_cast<double>(median_in_place(v).count());
}

Nanos AdaptivePolicy::noise_margin(std::size_t n, double sigma) const {
  // The standard error of a mean of n busy times: sigma over sqrt(n), x vrr_noise_sigmas
  // (level_shift passes a median's sigma scaled by vrr_median_error).
  if (sigma <= 0 || n == 0) return Nanos::zero();
  return Nanos{static_cast<std::int64_t>(config_.vrr_noise_sigmas * sigma / std::sqrt(static_cast<double>(n)))};
}

Nanos AdaptivePolicy::recent_busy_mean(std::size_t n) const {
  // The last n busy times (fewer early on), the longest left out; with the level-shift test
  // on (level_window > 0) the longest quarter: two close hitches are not an overload.
  n = std::min(n, busy_ring_.size());
  if (n < 2) return Nanos::zero();
  std::vector<Nanos>& last = busy_scratch_;
  newest_of_ring(busy_ring_, busy_next_, n, last);
  std::sort(last.begin(), last.end());
  const std::size_t drop = config_.level_window > 0 ? std::max<std::size_t>(1, n / 4) : 1;
  const std::size_t keep = n - std::min(drop, n - 1);
  Nanos sum{0};
  for (std::size_t i = 0; i < keep; ++i) sum += last[i];
  return sum / static_cast<std::int64_t>(keep);
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

void AdaptivePolicy::set_display_interval(Nanos interval, unsigned event) {
  if (interval == interval_) return;
  interval_ = interval;
  frames_since_change_ = 0;
  note_event(event);
}

// ---------------------------------------------------------------- one frame

FramePlan AdaptivePolicy::display_begin(Nanos now) {
  FramePlan plan;
  if (!started_) {
    start_clock(now);
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
    after_frame(now);
    display_cur_ = display_next_;
    const auto slot = static_cast<std::size_t>(frame_index()) % kPlanSlots;
    planned_[slot] = display_cur_;
    planned_frame_[slot] = frame_index();
    frame_end_ = display_cur_;
    plan.planned_start = start_next_;
    show_world_target(plan);
    // FIFO latches at the first vblank at or after the present: hold it past the
    // vblank before the planned one, so an early render is not shown a period early.
    // A FIFO queue cannot show it before the previous frame's vblank + 1 period: when that
    // is the planned one, present at once (the queue holds it) and keep the CPU busy.
    // VRR (vrr_ceiling_lead): the panel shows nothing sooner than its shortest refresh after
    // the previous frame; a frame planned for then is presented at once and the panel holds it.
    if (!latched()) {
      const bool queue = vrr_queues() && display_cur_ <= shown_prev_ + config_.min_interval;
      // Else shown when made: held until its time, less the present call's own (call_lead()).
      plan.present_at = queue ? Nanos{-1} : display_cur_ - call_lead();
    } else if (config_.queued_presents && display_cur_ <= grid_snap(shown_prev_ + period_)) {
      plan.present_at = Nanos{-1};
    } else {
      // Past the vblank before the planned one by a margin the grid's scatter cannot cross.
      const Nanos margin = std::clamp(std::max(config_.vblank_margin, config_.vblank_margin_residuals * grid_.residual()),
                                      Nanos{1}, period_ / 4);
      plan.present_at = display_cur_ - period_ + margin;
    }
    planned_gap_ = display_cur_ - shown_prev_;
  }
  plan.sim_previous = clock_.previous();
  plan.sim_current = clock_.current();
  frame_start_ = now;
  render_end_ = now;
  present_at_ = plan.present_at;
  steps_this_frame_ = 0;
  busy_measured_ = false;
  busy_ = Nanos::zero();
  frame_ = FrameState{};
  return plan;
}

void AdaptivePolicy::plan_next_frame() {
  // The frame that follows is planned one interval after this one's display; a frame
  // shown late moves the cadence (never two frames on one vblank, never a catch-up burst).
  // Latching: shown at a vblank (the one after the render when it missed). Otherwise
  // when presented.
  Nanos shown = frame_.missed ? (latched() ? grid_at_or_after(render_end_) : render_end_) : display_cur_;
  if (frame_.observed_display != Nanos::min())
    shown = std::max(shown, latched() ? grid_snap(frame_.observed_display) : frame_.observed_display);
  // Shown when presented (immediate, VRR): no earlier than the render's end, nor than its
  // reported display, even when within the lateness tolerance (a present held a little
  // long, a VRR panel's repeated frame): the next frame continues from the time this one
  // was really shown, so the lateness is one error now, not a jump in the next frame.
  if (!latched()) shown = std::max(shown, render_end_);
  absorb_lag(shown);
  if (config_.push_gap_guard > 0) {  // the recent gaps between shown frames
    if (shown_once_) {
      const Nanos gap = shown - shown_prev_;
      push_ring(gap_ring_, gap_next_, static_cast<std::size_t>(config_.push_gap_window), gap);
    }
    shown_once_ = true;
  }
  shown_prev_ = shown;
  const bool grid = on_grid();
  const Nanos gap = grid ? period_ : config_.min_interval;
  // Mixed cadence on a fixed refresh: the earliest vblank after this one; the pushes
  // below move it to the first vblank the frame can make. Otherwise one interval on.
  Nanos due = cadence_ == Cadence::mixed && grid ? display_cur_ + period_ : display_cur_ + interval_;
  // ... and under a frame-rate cap longer than a period (min_interval: 60 fps on a 144 Hz
  // panel), the first vblank at or after an ideal time that moves min_interval per frame:
  // whole periods mixed so that they average the cap (2 and 3 periods at 144 Hz). A frame
  // shown a period or more after its ideal moves it, so the frames after it do not run
  // faster than the cap to make up for it.
  if (cadence_ == Cadence::mixed && grid && config_.min_interval > period_) {
    const Nanos base = cap_ideal_ == Nanos::min() ? shown : std::max(cap_ideal_, shown - period_ + Nanos{1});
    cap_ideal_ = base + config_.min_interval;
    due = std::max(due, grid_at_or_after(cap_ideal_));
  } else {
    cap_ideal_ = Nanos::min();
  }
  // On a grid these are vblanks plus whole periods: each stands for its vblank.
  display_next_ = grid ? std::max({grid_snap(due), grid_snap(shown + gap), grid_snap(late_floor_)})
                       : std::max({due, shown + gap, late_floor_});
  start_next_ = display_next_ - start_lead();
  frame_end_ = display_next_;
  frame_.pushes = 0;
}

Action AdaptivePolicy::display_next(Nanos now) {
  if (!frame_.planned_next) {
    frame_.planned_next = true;
    plan_next_frame();
  }
  for (;;) {
    if (clock_.current() < world_target()) {
      clamp_stall();
      // Spiral guard: updates that cannot keep up with real time get the time left
      // before the next frame's start, at least one update.
      const Nanos per_update = steps_this_frame_ > 0 ? frame_.update_cost / steps_this_frame_ : Nanos::zero();
      const bool over_budget = spiral_ && steps_this_frame_ > 0 && now + per_update > start_next_;
      if (steps_this_frame_ < sim_.max_steps_per_frame && !over_budget) {
        ++steps_this_frame_;
        clock_.advance(sim_.step);
        frame_.update_started = now;
        return Action{ActionKind::update, sim_.step, Nanos::zero()};
      }
      // The cap cut this frame's catch-up short (a push moved its display after the
      // catch-up was planned): with step_cap_keeps_lag that share stays lag, caught up by
      // the frames after, rather than dropped. Not under the spiral guard (updates that
      // cannot keep up with real time drop their debt), nor on VRR (AdaptiveConfig).
      if (config_.step_cap_keeps_lag && !spiral_ && !vrr() && sim_.debt == DebtPolicy::discard) {
        const Nanos back = std::min(caught_, world_target() - clock_.current());
        if (back > Nanos::zero()) {
          lag_ += back;
          caught_ -= back;
        }
      }
      hit_step_cap();
    }
    measure_busy(now);
    // Pipelined: the next frame may start late as long as it is still presented by its
    // planned display. When even that is out of reach, plan it one slot later now, so
    // the world it shows is the one of its real display time (at most max_pushes times).
    // Judged when the updates are done, not after the wait for the start (which ends
    // within the waiter's error of start_next_ by design).
    // The mixed cadence and VRR judge on a typical render: a longer one is shown a vblank
    // late (mixed) or when it is ready (VRR) rather than every frame idling in a held present.
    // A render thread starts the next frame's render once this frame is presented, not now,
    // and is planned on its longest recent render (AdaptiveConfig::render_thread_margin).
    const Nanos lead = (off_thread_ ? off_thread_lead() : render_lead()) + call_lead();
    const Nanos from = off_thread_ ? std::max(now, render_free_) : now;
    // Its GPU work queues behind this frame's (gpu_queue_plan): the render estimate counts
    // from when the GPU is expected to be done with this one, if that is later.
    const bool queued_gpu = config_.gpu_queue_plan && !off_thread_ && last_gpu_ > Nanos::zero();
    const Nanos ready = (queued_gpu ? std::max(from, gpu_free_) : from) + lead;
    if (!frame_.waited && ready > display_next_ && frame_.pushes < config_.max_pushes) {
      Nanos target = on_grid() ? grid_at_or_after(ready) : ready;
      // No further than push_gap_guard x the recent mean gap after the previous frame: a
      // gap the plan makes is then no stutter (a longer render is shown late instead).
      if (config_.push_gap_guard > 0 && !gap_ring_.empty()) {
        Nanos sum{0};
        for (const Nanos g : gap_ring_) sum += g;
        const Nanos mean = sum / static_cast<std::int64_t>(gap_ring_.size());
        Nanos most = shown_prev_ + scale(mean, config_.push_gap_guard);
        if (on_grid()) most = grid_at_or_after(most - period_ + Nanos{1});  // the last vblank within
        target = std::min(target, most);
        if (target <= display_next_) break;
      }
      ++frame_.pushes;
      frame_.pushed = true;
      display_next_ = target;
      start_next_ = display_next_ - start_lead();
      frame_end_ = display_next_;
      continue;  // more simulation time to cover
    }
    break;
  }
  if (now < start_next_) {
    frame_.waited = true;
    return Action{ActionKind::wait, Nanos::zero(), start_next_};
  }
  // The mixed cadence runs as fast as the costs allow: its plan is to start right away.
  if (cadence_ == Cadence::mixed && !frame_.waited) start_next_ = now;
  return Action{ActionKind::render, Nanos::zero(), Nanos::zero()};
}

void AdaptivePolicy::note_lag(Nanos shown, Nanos added) {
  // A late frame (catch_up_late x the interval of lag or more) more than catch_up_burst
  // after the last one starts a burst. The lag added from one burst's start to the next's
  // (its late frames and any small lateness after them), and the time between the starts,
  // are averaged (the newest weighing half) to pace the catch-up.
  const auto average = [](Nanos mean, Nanos sample) { return mean > Nanos::zero() ? (mean + sample) / 2 : sample; };
  const bool late = late_frame(added);
  if (late && (last_late_ == Nanos::min() || shown - last_late_ >= config_.catch_up_burst)) {
    if (last_late_ != Nanos::min()) {
      late_spacing_ = average(late_spacing_, shown - burst_start_);
      late_add_ = average(late_add_, burst_add_);
    }
    burst_start_ = shown;
    burst_add_ = Nanos::zero();
  }
  if (late) {
    last_late_ = shown;
    last_late_index_ = frame_index();
  }
  burst_add_ += added;
}

Nanos AdaptivePolicy::catch_up_time() const {
  // Back on time within a bound, or sooner when late frames recur so often that their lags
  // would pile up past max_lag (and be dropped). The bound: vrr_catch_up_within on VRR,
  // where frames are presented when ready and lateness is routine; catch_up_within
  // elsewhere, where a late frame is a missed display and rare (0: none, the catch_up pace).
  // Bursts adding a lag A every s (of which s - A of catching up: the late frames' own time
  // is not) pile up to A / (1 - e^(-(s - A) / within)) under this exponential approach:
  // kept under catch_up_pile x max_lag. A burst that fills that by itself is dropped down
  // to max_lag anyway: what matters then is that little of it (1 - catch_up_pile) is left
  // when the next comes. 0: no bound (the catch_up pace alone). Off VRR, a lag piled up
  // past pile_catch_up_lag (towards max_pile_lag) is back within pile_catch_up_within at most.
  Nanos within = vrr() ? config_.vrr_catch_up_within : config_.catch_up_within;
  if (!vrr() && config_.pile_catch_up_lag > Nanos::zero() && lag_ > config_.pile_catch_up_lag)
    within = within > Nanos::zero() ? std::min(within, config_.pile_catch_up_within) : config_.pile_catch_up_within;
  if (!config_.catch_up_paced || late_add_ <= Nanos::zero() || late_spacing_ <= late_add_) return within;
  const double pile = config_.catch_up_pile;
  const double share = std::min(pile, static_cast<double>(late_add_.count()) /
                                          (pile * static_cast<double>(std::max(config_.max_lag, Nanos{1}).count())));
  const double keeps_under = static_cast<double>((late_spacing_ - late_add_).count()) / -std::log1p(-share);
  // Past the bound, or past an hour (no pace to speak of; also keeps the cast in range).
  const double most = within > Nanos::zero() ? static_cast<double>(within.count()) : 3.6e12;
  if (keeps_under >= most) return within;
  const Nanos paced = std::max({config_.catch_up_burst, Nanos{static_cast<std::int64_t>(keeps_under)}, Nanos{1}});
  return within > Nanos::zero() ? std::min(within, paced) : paced;
}

void AdaptivePolicy::absorb_lag(Nanos shown) {
  // The current frame shows the world of display_cur_ - lag_ - pile_kept_ at `shown`: the
  // next one continues from there, then catches up a bounded step per frame.
  const Nanos added = std::max(shown - display_cur_, Nanos::zero());  // this frame's lateness
  caught_ = Nanos::zero();
  if (config_.catch_up_p99 && vrr()) book_error(shown);
  // stall_isolated_frames: no late frame in that many frames before this one (read before
  // note_lag books this one).
  const bool isolated =
      config_.stall_isolated_frames <= 0 || frame_index() - last_late_index_ > config_.stall_isolated_frames;
  if (added > Nanos::zero()) {
    lag_ += added;
    note_lag(shown, added);
  }
  if (lag_ + pile_kept_ <= Nanos::zero()) return;
  double rate = config_.catch_up;
  if (sim_.debt == DebtPolicy::discard) {
    if (rate <= 0) {  // no catch-up: every lag is dropped
      clock_.drop(lag_ + pile_kept_);
      note_dropped(lag_ + pile_kept_);
      lag_ = Nanos::zero();
      pile_kept_ = Nanos::zero();
      return;
    }
    drop_excess(added);
  }
  if (rate <= 0) rate = config_.keep_debt_catch_up;
  const Nanos within = catch_up_time();
  Nanos step = paced_step(lag_, rate, within);
  if (isolated) start_stall(added);  // not a stall among a storm's late frames (stall_isolated_frames)
  end_late_run(added, rate, within);
  if (stall_left_ > 0) step = std::max(step, stall_step());
  caught_ = std::min(lag_, step);
  lag_ -= caught_;
  if (pile_kept_ > Nanos::zero()) {
    // The kept pile, which none of the steps above sees: vrr_pile_keep_pace of the interval
    // a frame, the world running that much fast until it is back, a small error in each
    // frame where a jump is a large one in a few.
    const Nanos slow = pile_step();
    pile_kept_ -= slow;
    caught_ += slow;
  }
}

void AdaptivePolicy::book_error(Nanos shown) {
  // This frame's animation error: how much more its world advanced than its display.
  const Nanos world = display_cur_ - lag_ - pile_kept_;
  if (world_prev_ != Nanos::min()) {
    const Nanos error = (world - world_prev_) - (shown - shown_prev_);
    detail::push_ring(err_ring_, err_next_, static_cast<std::size_t>(config_.catch_up_p99_window),
                      error < Nanos::zero() ? -error : error);
  }
  world_prev_ = world;
}

void AdaptivePolicy::drop_excess(Nanos added) {
  // Dropped: a stall's lateness beyond max_lag (as the stall clamp drops it), and lag piled
  // up by many late frames beyond max_pile_lag (0: beyond max_lag, however it came). On
  // VRR up to vrr_pile_keep of such a pile's excess moves to pile_kept_ instead, out of
  // every rule below, to be caught up at vrr_pile_keep_pace.
  const Nanos pile = config_.max_pile_lag > Nanos::zero() ? config_.max_pile_lag : config_.max_lag;
  const Nanos stall_excess = added - config_.max_lag;
  const Nanos pile_excess = lag_ - pile;
  Nanos excess = std::max(stall_excess, pile_excess);
  if (excess > Nanos::zero() && pile_excess >= stall_excess && vrr() && config_.vrr_pile_keep > Nanos::zero()) {
    const Nanos keep = std::clamp(config_.vrr_pile_keep - pile_kept_, Nanos::zero(), excess);
    pile_kept_ += keep;
    lag_ -= keep;
    excess -= keep;
  }
  if (excess > Nanos::zero()) {
    clock_.drop(excess);
    note_dropped(excess);
    lag_ -= excess;
  }
}

void AdaptivePolicy::start_stall(Nanos added) {
  // A stall: what is left of its lag is caught up within stall_catch_up_frames frames, or
  // (stall_catch_up_window) within one while the stalls of the last that many frames, two
  // large errors each (the stall's lateness, the jump), are no more than the 1% of frames
  // whose errors a p99 passes: then none of them sets it.
  if (config_.stall_catch_up_frames <= 0 || config_.stall_lag <= Nanos::zero() || added < config_.stall_lag) return;
  stall_left_ = config_.stall_catch_up_frames;
  if (config_.stall_catch_up_window > 0) {
    const std::int64_t frame = frame_index();
    while (!stall_frames_.empty() && stall_frames_.front() <= frame - config_.stall_catch_up_window)
      stall_frames_.pop_front();
    stall_frames_.push_back(frame);
    if (static_cast<std::int64_t>(stall_frames_.size()) * 2 <= config_.stall_catch_up_window / 100) stall_left_ = 1;
  }
}

void AdaptivePolicy::end_late_run(Nanos added, double rate, Nanos within) {
  // VRR: a run of late frames, misses_to_widen or more one after another (a lasting
  // change's mark, as the widen rule reads it; hitches in a burst come and go), that piled
  // up stall_run_lag: the same, once the run ends (elsewhere the catch-up pace is slow
  // enough to be no animation error worth the name).
  if (late_frame(added)) {
    run_add_ += added;
    ++run_frames_;
    return;
  }
  const bool lasting_run = vrr() && run_frames_ >= std::max(config_.misses_to_widen, 1) && stall_left_ == 0;
  if (lasting_run && config_.stall_catch_up_frames > 0 && config_.stall_run_lag > Nanos::zero() &&
      run_add_ >= config_.stall_run_lag)
    stall_left_ = config_.stall_catch_up_frames;
  // ... or, with catch_up_p99, when a jump leaves the recent errors the lower p99.
  else if (lasting_run && config_.catch_up_p99 && jump_leaves_lower_p99(rate, within))
    stall_left_ = config_.catch_up_p99_frames;
  run_add_ = Nanos::zero();
  run_frames_ = 0;
}

Nanos AdaptivePolicy::stall_step() {
  // The stall's lag over the frames left, no faster than the step cap lets a frame simulate
  // (it would drop the rest as debt): then the stall takes more frames.
  Nanos want = lag_ / stall_left_;
  const Nanos room = sim_.step * sim_.max_steps_per_frame - interval_;
  if (room > Nanos::zero() && want > room) want = room;
  else --stall_left_;
  return want;
}

Nanos AdaptivePolicy::paced_step(Nanos lag, double rate, Nanos within) const {
  Nanos step = std::max(Nanos{1}, scale(interval_, rate));
  if (within > Nanos::zero())
    step = std::max(step, Nanos{static_cast<std::int64_t>(static_cast<double>(lag.count()) *
                                                          static_cast<double>(interval_.count()) /
                                                          static_cast<double>(within.count()))});
  // VRR: frames are presented when ready, so a little lateness is routine, not a hitch;
  // its lag is caught up at vrr_catch_up of itself per frame (it would pile up past max_lag).
  if (cadence_ == Cadence::free) step = std::max(step, scale(lag, config_.vrr_catch_up));
  // VRR: a paced step (with the kept pile's beside it) adds no more than vrr_catch_up_cap's
  // bound to a frame: after a storm the interval stays wide for a few frames, and a pace
  // read as a share of it put a step of a quarter of 88 ms into each.
  const Nanos cap = catch_up_cap();
  if (cap > Nanos::zero()) step = std::max(Nanos{1}, std::min(step, cap - pile_step()));
  return step;
}

Nanos AdaptivePolicy::catch_up_cap() const {
  if (!vrr() || config_.vrr_catch_up_cap <= 0) return Nanos::zero();
  return std::max(scale(config_.vrr_max_period, config_.vrr_catch_up_cap), Nanos{1});
}

Nanos AdaptivePolicy::pile_step() const {
  Nanos slow = std::max(scale(interval_, config_.vrr_pile_keep_pace), Nanos{1});
  const Nanos cap = catch_up_cap();
  if (cap > Nanos::zero()) slow = std::min(slow, cap);
  return std::min(pile_kept_, slow);
}

bool AdaptivePolicy::jump_leaves_lower_p99(double rate, Nanos within) const {
  const auto window = static_cast<std::size_t>(config_.catch_up_p99_window);
  if (err_ring_.size() < window || lag_ <= Nanos::zero()) return false;
  // The p99 (nearest rank) of the recent errors with `steps` added.
  const auto p99_with = [this](auto&& add_steps) {
    p99_scratch_.assign(err_ring_.begin(), err_ring_.end());
    add_steps(p99_scratch_);
    const auto at = p99_scratch_.begin() + static_cast<std::ptrdiff_t>(percentile_index(99, p99_scratch_.size()));
    std::nth_element(p99_scratch_.begin(), at, p99_scratch_.end());
    return *at;
  };
  const int frames = config_.catch_up_p99_frames;
  const Nanos jump = p99_with([&](std::vector<Nanos>& v) { v.insert(v.end(), static_cast<std::size_t>(frames), lag_ / frames); });
  // The paced catch-up's steps as absorb_lag takes them, for at most ten windows of frames.
  const Nanos paced = p99_with([&](std::vector<Nanos>& v) {
    Nanos lag = lag_;
    for (std::size_t i = 0; i < 10 * window && lag > Nanos::zero(); ++i) {
      const Nanos step = std::min(paced_step(lag, rate, within), lag);
      v.push_back(step);
      lag -= step;
    }
  });
  return jump < paced;
}

void AdaptivePolicy::bank_hold(Nanos period, Nanos busy_time) {
  if (config_.vrr_hold_bank <= 0 || cadence_ != Cadence::free || below_vrr_range()) return;
  // What the frame could have idled: vrr_hold_budget of its busy time, plus the wait of a
  // frame held to the interval (the interval's excess over its busy time). What it did: its
  // start to the next frame's start, less its busy time (holds, planned starts).
  const auto busy = static_cast<double>(busy_time.count());
  const double idle = std::max(0.0, static_cast<double>(period.count()) - busy);
  const double could = config_.vrr_hold_budget * busy + std::max(0.0, static_cast<double>(interval_.count()) - busy);
  const double bound = config_.vrr_hold_bank * config_.vrr_hold_budget * busy;
  hold_bank_ = std::clamp(hold_bank_ + could - idle, -bound, bound);
}

// ---------------------------------------------------------------- after a frame: one decision

void AdaptivePolicy::observe_frame(std::int64_t /*frame*/, Nanos busy) {
  // The work after a present (its call, then the updates): the second-longest recent one,
  // + present_margin.
  push_ring(post_work_, post_next_, static_cast<std::size_t>(config_.post_work_history),
            frame_.present_call + frame_.update_cost);
  post_lead_ = config_.present_margin + second_largest(post_work_, static_cast<std::size_t>(config_.estimate_outlier_after));
  if (config_.present_call_lead) {
    push_ring(calls_, calls_next_, static_cast<std::size_t>(config_.present_call_history), frame_.present_call);
    // No lead on one call alone, the shortest until estimate_outlier_after calls are known,
    // then the median (a first present's call, setting up the swapchain, can take ten times
    // the rest's).
    if (calls_.size() < 2) {
      call_lead_ = Nanos::zero();
    } else if (calls_.size() < static_cast<std::size_t>(std::max(config_.estimate_outlier_after, 1))) {
      call_lead_ = *std::min_element(calls_.begin(), calls_.end());
    } else {
      call_scratch_.assign(calls_.begin(), calls_.end());
      call_lead_ = median_in_place(call_scratch_);
    }
  }
  const auto window = static_cast<std::size_t>(std::max(config_.shrink_window, 1));
  push_ring(busy_ring_, busy_next_, window, busy);
  ++frames_since_change_;

  // Spiral detection over a decaying sum: update CPU time against simulated time.
  update_cost_sum_ += frame_.update_cost;
  update_sim_sum_ += sim_.step * steps_this_frame_;
  if (update_sim_sum_ > config_.spiral_window) {
    update_cost_sum_ /= 2;
    update_sim_sum_ /= 2;
  }
  spiral_ = update_sim_sum_ > Nanos::zero() && update_rate() >= config_.spiral_ratio;
}

double AdaptivePolicy::update_rate() const {
  if (update_sim_sum_ <= Nanos::zero()) return 0.0;
  return static_cast<double>(update_cost_sum_.count()) / static_cast<double>(update_sim_sum_.count());
}

void AdaptivePolicy::after_frame(Nanos now) {
  const std::int64_t frame = frame_index() - 1;
  // The render plus the updates (the present hold between them is not busy); on the
  // loop's thread, at least the GPU's time per frame (busy_counts_gpu).
  const Nanos busy = busy_with_gpu(render_cost_ + frame_.update_cost);
  bank_hold(now - frame_start_, busy);
  observe_frame(frame, busy);

  // 1. The cadence. The mixed one follows the mean cost; a frame that cannot make its
  //    vblank is pushed to the next one and shows that vblank's world: pushes are not misses.
  if (const auto d = decide_cadence()) apply(*d, frame);
  if (cadence_ == Cadence::mixed) {
    miss_history_ = 0;
    missed_busy_.clear();
    hitch_.reset();
    return;
  }

  // 2. Misses: a frame that missed its planned display (or whose successor had to be
  //    pushed). One is a hitch; misses_to_widen in the miss window are a lasting change.
  const bool miss = frame_.missed || frame_.pushed;
  miss_history_ = (miss_history_ << 1) | (miss ? 1u : 0u);
  if (miss) missed_busy_.push_back(busy);
  // A frame that missed, or would have missed starting one interval ahead, needs the depth.
  if (frame_.missed || (period_ > Nanos::zero() && render_cost_ + config_.present_margin > fixed_lead(1)))
    last_deep_frame_ = frame;
  if (recent_misses() == 0) missed_busy_.clear();
  if (const auto d = decide_widen(miss)) {
    apply(*d, frame);
    return;
  }
  if (!config_.shrink) return;

  // 3. Quick recovery from a hitch, 4. else a shrink.
  if (const auto d = decide_forgive()) {
    apply(*d, frame);
    return;
  }
  if (const auto d = decide_shrink()) apply(*d, frame);
}

int AdaptivePolicy::recent_misses() const {
  const unsigned window_mask = config_.miss_window >= 32 ? ~0u : (1u << config_.miss_window) - 1u;
  return std::popcount(miss_history_ & window_mask);
}

std::optional<AdaptivePolicy::Decision> AdaptivePolicy::decide_cadence() const {
  if (cadence_ == Cadence::free) return decide_vrr();
  const auto window = static_cast<std::size_t>(std::max(config_.shrink_window, 1));
  if (config_.mixed_cadence_loss <= 0 || config_.mixed_cadence_loss >= 1 || busy_ring_.size() < window)
    return std::nullopt;
  const Nanos mean = mean_busy();
  // The steady choice: whole periods over the mean with the widen margin; on a free
  // display, the interval the percentile shrink rule would give.
  const Nanos even = period_ > Nanos::zero()
                         ? quantize_up(scale(mean, config_.widen_factor))
                         : std::clamp(scale(percentile_busy(config_.shrink_percentile), config_.widen_factor),
                                      config_.min_interval, config_.max_interval);
  const Nanos free = free_interval(mean);
  const double ratio = static_cast<double>(free.count()) / static_cast<double>(even.count());
  // Enter when whole periods lose more than the allowed share of the rate; leave (to
  // whole periods) when they lose less than mixed_leave_share of it: no flapping. On a
  // free display, entering compares with the interval in force (the shrink rule's hold
  // and backoff have settled it: a rare spike in the window does not count).
  // --no-shrink holds the interval: no cadence change that would shorten it.
  if (!config_.shrink && free < interval_) return std::nullopt;
  if (cadence_ == Cadence::even) {
    if (prefer_mixed(period_ > Nanos::zero() ? even : interval_, free))
      return Decision{Transition::enter_mixed, free, "whole periods lose more than mixed_cadence_loss of the rate"};
    return std::nullopt;
  }
  if (ratio >= 1.0 - config_.mixed_cadence_loss * config_.mixed_leave_share || even <= config_.mixed_cadence_over)
    return Decision{Transition::leave_mixed, even, "whole periods cost little of the rate again"};
  // Follow the mean, ignoring small moves (no flapping).
  const Nanos diff = free > interval_ ? free - interval_ : interval_ - free;
  if (static_cast<double>(diff.count()) > config_.mixed_follow * static_cast<double>(interval_.count()))
    return Decision{Transition::follow_mean, free, "the mean busy time moved by more than mixed_follow"};
  return std::nullopt;
}

std::optional<AdaptivePolicy::Decision> AdaptivePolicy::decide_vrr() const {
  // No grid to quantize to and no cadence to mix: the interval is the cost the frames
  // take (the mean busy time; the busiest vrr_trim share left out, none by default) with
  // vrr_margin, within the panel's range from below (min_interval = 1 / its maximum rate).
  const auto window = static_cast<std::size_t>(std::max(config_.shrink_window, 1));
  // vrr_refollow_frames: while the window refills (after a widen or a forgiven hitch, which
  // clear it, and at the start), follow_cost may act on the frames there are, towards a
  // much shorter interval only (a widen read a storm's compiles as the level; the frames
  // since cost far less).
  const auto refollow = static_cast<std::size_t>(std::max(config_.vrr_refollow_frames, 0));
  const bool refilling = busy_ring_.size() < window;
  if (refilling && (refollow == 0 || busy_ring_.size() < refollow)) return std::nullopt;
  const Nanos target = std::clamp(scale(trimmed_mean_busy(), config_.vrr_margin), config_.min_interval, config_.max_interval);
  if (!config_.shrink && target < interval_) return std::nullopt;
  if (refilling) {
    if (target < scale(interval_, config_.vrr_refollow_share))
      return Decision{Transition::refollow_cost, target,
                      "VRR: the frames since the window restarted cost far less than the interval"};
    return std::nullopt;
  }
  // A cost under the panel's shortest refresh: the interval goes there, however little it is
  // above it (mixed_follow's hysteresis kept it a little over the ceiling for good, every
  // present held to its own time instead of queueing at the ceiling: vrr_ceiling_lead).
  if (config_.vrr_snap_ceiling && target == config_.min_interval && interval_ > target)
    return Decision{Transition::follow_cost, target, "VRR: the mean busy time is under the panel's shortest refresh"};
  // Below the panel's minimum rate it repeats frames at a multiple of the rate it predicts
  // from the recent intervals: keep the interval steadier there.
  const double share = below_vrr_range() && target > config_.vrr_max_period ? config_.vrr_lfc_follow : config_.mixed_follow;
  const Nanos diff = target > interval_ ? target - interval_ : interval_ - target;
  if (static_cast<double>(diff.count()) > share * static_cast<double>(interval_.count()))
    return Decision{Transition::follow_cost, target, "VRR: the mean busy time moved the steady interval"};
  return std::nullopt;
}

Nanos AdaptivePolicy::widen_target(Nanos lasting) const {
  const double margin = widen_margin();
  const Nanos plain = scale(lasting, margin);
  // Under the spiral guard (observe_frame has judged this frame) the guard holds the rate
  // instead: the updates get the time left.
  if (!config_.widen_counts_updates || spiral_) return plain;
  // The missed frames' updates covered about the old interval; at the wider one a frame
  // runs updates for it and one step more (it steps until just past its end, and a
  // catch-up adds a little): I = margin x (lasting + r x (I + step - interval)), r the
  // update CPU time per simulated time (the spiral guard's measure).
  const double r = update_rate();
  if (r <= 0.0 || margin * r >= 1.0) return plain;
  // Near margin x r = 1 the solution runs off to seconds: no further than max_interval (the
  // cast would overflow), where quantize_up clamps it anyway.
  const double wider = std::min(
      margin * (static_cast<double>(lasting.count()) + r * static_cast<double>((sim_.step - interval_).count())) /
          (1.0 - margin * r),
      static_cast<double>(config_.max_interval.count()));
  return std::max(plain, Nanos{static_cast<std::int64_t>(wider)});
}

std::optional<AdaptivePolicy::Decision> AdaptivePolicy::decide_widen(bool miss) const {
  if (!miss) return std::nullopt;
  const int recent = recent_misses();
  // A queue absorbs costs that vary around the interval, not a mean above it: when the
  // recent frames (the longest left out) cost more than the interval on average, the
  // pushes will not stop by themselves. On VRR, where the interval is the mean, by more than
  // noise (noise_margin; as for level_shift).
  const auto overload_window = static_cast<std::size_t>(config_.overload_window);
  // Misses alone do not tell a burst of long frames from a lasting change: the recent median
  // cost must need a wider interval too (level_shift); a burst leaves the median where it was.
  const double sigma = noise_sigma();  // once for both tests
  const bool lasting_misses = recent >= std::max(config_.misses_to_widen, 1) && level_shift(sigma);
  const bool overloaded =
      recent_busy_mean(overload_window) > interval_ + noise_margin(std::min(overload_window, busy_ring_.size()), sigma);
  if (!lasting_misses && !overloaded) return std::nullopt;
  // The lasting level is the cheapest of the missing frames (a hitch among them is not).
  // A miss under an overload alone may be that one hitch: the level is then the overload's,
  // the recent mean, not the hitch's cost.
  const Nanos cheapest_miss = *std::min_element(missed_busy_.begin(), missed_busy_.end());
  const Nanos lasting = lasting_misses ? cheapest_miss : std::min(cheapest_miss, recent_busy_mean(overload_window));
  // One period more on a grid; on a free display at least the lateness tolerance (no
  // widening by nanoseconds).
  const Nanos step_up = period_ > Nanos::zero() ? interval_ + period_ : interval_ + lateness_tolerance();
  const Nanos wider = quantize_up(std::max(step_up, widen_target(lasting)));
  const Nanos free = free_interval(std::max(lasting, recent_busy_mean(overload_window)));
  if (wider > interval_ && cadence_ != Cadence::free && prefer_mixed(wider, free))
    return Decision{Transition::widen_to_mixed, free, "a lasting miss, and wider whole periods would cost too much of the rate"};
  if (wider > interval_)
    return Decision{Transition::widen, wider,
                    lasting_misses ? "misses_to_widen misses in the miss window" : "a miss under a mean overload"};
  return Decision{Transition::absorb_misses, interval_, "a lasting miss at the widest interval"};
}

std::optional<AdaptivePolicy::Decision> AdaptivePolicy::decide_forgive() {
  if (!hitch_) return std::nullopt;
  ++hitch_->seen;
  // Would this frame have fit the interval before the widen (with that interval's updates)?
  const Nanos cost = cost_at(hitch_->pre_interval, frame_.update_cost, sim_.max_steps_per_frame);
  if (scale(cost, widen_margin()) > hitch_->pre_interval) ++hitch_->misfits;
  // A hitch often drags a straggler behind it: the change is lasting only when most of the
  // hitch_frames frames after the widen need the wider interval.
  if (hitch_->misfits * 2 > config_.hitch_frames) {
    hitch_.reset();
    return std::nullopt;
  }
  if (hitch_->seen >= config_.hitch_frames)
    return Decision{Transition::forgive_hitch, hitch_->pre_interval, "most frames after the widen fit the old interval"};
  return std::nullopt;
}

std::optional<AdaptivePolicy::Decision> AdaptivePolicy::decide_shrink() const {
  if (cadence_ == Cadence::free) return std::nullopt;  // VRR: follow_cost moves it both ways
  // Shrink on the busy-time percentile with the widen margin, one period at a time,
  // after a hold that doubles with every failed shrink.
  const auto window = static_cast<std::size_t>(std::max(config_.shrink_window, 1));
  if (busy_ring_.size() < window) return std::nullopt;
  const std::int64_t hold = static_cast<std::int64_t>(config_.shrink_window) << backoff_;
  if (frames_since_change_ < hold) return std::nullopt;
  Nanos need = scale(percentile_busy(config_.shrink_percentile), config_.widen_factor);
  if (latched() && config_.queued_presents && config_.pipeline_frames > 1) {
    // A FIFO queue absorbs costs that vary around the interval (frames start up to
    // pipeline_frames intervals ahead): the mean with the mixed cadence's margin must fit,
    // and the tail within the queue's depth.
    need = std::max(scale(mean_busy(), config_.mixed_margin), need / config_.pipeline_frames);
  }
  Nanos shorter;
  if (period_ > Nanos::zero()) {
    shorter = quantize_up(interval_ - period_);
    if (shorter >= interval_ || need > shorter) return std::nullopt;
  } else {
    shorter = std::clamp(need, config_.min_interval, config_.max_interval);
    if (interval_ - shorter < config_.min_shrink_step) return std::nullopt;
  }
  return Decision{Transition::shrink, shorter, "headroom held for the shrink window (x 2^backoff)"};
}

void AdaptivePolicy::apply(const Decision& d, std::int64_t frame) {
  const unsigned direction = d.interval > interval_ ? event_widen : event_shrink;
  switch (d.kind) {
    case Transition::none:
      return;
    case Transition::enter_mixed:
    case Transition::follow_mean:
      cadence_ = Cadence::mixed;
      set_display_interval(d.interval, direction);
      break;
    case Transition::follow_cost:
    case Transition::refollow_cost:  // the ring is kept: once full, follow_cost reads it all
      set_display_interval(d.interval, direction);
      break;
    case Transition::leave_mixed:
      cadence_ = Cadence::even;
      set_display_interval(d.interval, direction);
      busy_ring_.clear();
      busy_next_ = 0;
      break;
    case Transition::widen_to_mixed:
      // Whole periods would cost too much of the rate: the mixed cadence at once.
      cadence_ = Cadence::mixed;
      set_display_interval(d.interval, event_widen);
      miss_history_ = 0;
      missed_busy_.clear();
      busy_ring_.clear();
      busy_next_ = 0;
      break;
    case Transition::widen:
      // A widen soon after a shrink marks the shrink as failed: the next waits longer.
      if (frame - last_shrink_frame_ <= config_.failed_shrink_frames) backoff_ = std::min(backoff_ + 1, config_.max_backoff);
      if (hitch_) {
        hitch_->seen = 0;
        hitch_->misfits = 0;
      } else {
        hitch_ = HitchWatch{interval_, 0, 0};
      }
      set_display_interval(d.interval, event_widen);
      miss_history_ = 0;
      missed_busy_.clear();
      if (cadence_ == Cadence::free) {
        // VRR: the cost followed from here on is the new one (follow_cost waits for a window).
        busy_ring_.clear();
        busy_next_ = 0;
      }
      break;
    case Transition::absorb_misses:
      miss_history_ = 0;
      missed_busy_.clear();
      break;
    case Transition::forgive_hitch:
      hitch_.reset();
      set_display_interval(d.interval, event_shrink);
      busy_ring_.clear();
      busy_next_ = 0;
      break;
    case Transition::shrink:
      set_display_interval(d.interval, event_shrink);
      last_shrink_frame_ = frame;
      break;
  }
  last_transition_ = d;
}

}  // namespace pacer
