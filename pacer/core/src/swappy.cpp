// The `swappy` policy: Swappy's pacing rules as android-gamesdk publishes them. Every rule
// cites its source: android-gamesdk, src/swappy/common/SwappyCommon.cpp (and .h for the
// constants), as of the AGDK release commit 98db0959f ("AGDK: update versions for next
// release"). docs/pacing.md ("Peers") lists what is taken and what is left out.
#include "pacer/swappy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace pacer {

namespace {

// SwappyCommon.h: the constants of the auto swap interval.
constexpr Nanos frame_margin{1'000'000};           // FRAME_MARGIN = 1ms
constexpr Nanos duration_rounding_margin{1'000};   // DURATION_ROUNDING_MARGIN = 1us
constexpr Nanos refresh_rate_margin{500};          // REFRESH_RATE_MARGIN = 500ns
constexpr double non_pipeline_percent = 50;        // NON_PIPELINE_PERCENT = 50
constexpr int frame_drop_threshold = 10;           // FRAME_DROP_THRESHOLD = 10 (%)
constexpr Nanos max_duration{100'000'000};         // FrameDuration::MAX_DURATION = 100ms
constexpr Nanos sample_window{2'000'000'000};      // FrameDurations::FRAME_DURATION_SAMPLE_SECONDS = 2s

const SwappyConfig& checked(const SwappyConfig& config, const FixedStepConfig& sim) {
  validate(sim);
  validate(config);
  return config;
}

}  // namespace

void validate(const SwappyConfig& c) {
  using detail::config_error;
  using detail::format_value;
  constexpr Nanos hour{3'600'000'000'000};
  const auto positive = [&](std::string_view field, Nanos value) {
    if (value <= Nanos::zero() || value > hour)
      config_error(std::string{"SwappyConfig::"} + std::string{field}, "> 0 and at most an hour", format_value(value));
  };
  positive("refresh_period", c.refresh_period);
  positive("swap_duration", c.swap_duration);
  positive("max_auto_swap_duration", c.max_auto_swap_duration);
  if (c.vblank_phase < Nanos::zero() || c.vblank_phase > hour)
    config_error("SwappyConfig::vblank_phase", ">= 0 and at most an hour", format_value(c.vblank_phase));
  if (c.vblank_margin < Nanos::zero() || c.vblank_margin > c.refresh_period / 4)
    config_error("SwappyConfig::vblank_margin",
                 ">= 0 and at most a quarter of refresh_period (" + format_value(c.refresh_period / 4) + ")",
                 format_value(c.vblank_margin));
}

SwappyPolicy::SwappyPolicy(SwappyConfig config, FixedStepConfig sim)
    : Pacer{policy_name},
      config_{checked(config, sim)},
      step_{sim},
      grid_{config.refresh_period, config.vblank_phase} {
  // updateDisplayTimings, first call (the settings changed from nothing): the interval of
  // the game's swap duration, calculateSwapInterval(mSwapDuration, refreshPeriod), with
  // mPipelineMode = On.
  swap_interval_ = swap_interval_for(config_.swap_duration);
  pipelined_ = true;
}

int SwappyPolicy::swap_interval_for(Nanos frame_time) const {
  // calculateSwapInterval: 1 below a period, else whole periods, one more when the
  // remainder is over REFRESH_RATE_MARGIN (500 ns).
  const Nanos p = period();
  if (frame_time < p) return 1;
  const std::int64_t whole = frame_time / p + ((frame_time % p) > refresh_rate_margin ? 1 : 0);
  return static_cast<int>(std::min<std::int64_t>(whole, std::numeric_limits<int>::max() / 2));
}

Nanos SwappyPolicy::tick_at(Nanos t) const {
  // Choreographer's vsync ticks advance mCurrentFrame (wakeClient); the latest at or before t.
  const Nanos next = grid_.at_or_after(t);
  return next == t ? t : grid_.nearest(next - period());
}

void SwappyPolicy::start_frame(Nanos now) {
  // startFrame: mTargetFrame = mCurrentFrame + mAutoSwapInterval; mStartFrameTime = now.
  // (The buffer-stuffing fix, mBufferStuffingFixWait, is off by default: not modelled.)
  frame_start_ = now;
  target_ = grid_.nearest(tick_at(now) + period() * swap_interval_);
}

void SwappyPolicy::add_frame(Nanos now) {
  // waitForNextFrame: cpuTime = now - mStartFrameTime; addFrameDuration({cpuTime, gpuTime,
  // mCurrentFrame > mTargetFrame}). The simulator has no GPU: gpuTime is 0. FrameDuration
  // clamps the time to MAX_DURATION.
  const Nanos cpu = std::min(now - frame_start_, max_duration);
  const bool missed = tick_at(now) > target_ + period() / 2;  // a later tick than the target
  window_.push_back({now, cpu, missed});
  window_sum_ += cpu;
  if (missed) ++misses_;
  // FrameDurations::add: drop the oldest while the second oldest is over 2 s old.
  while (window_.size() >= 2 && now - window_[1].at > sample_window) {
    window_sum_ -= window_.front().cpu;
    if (window_.front().missed) --misses_;
    window_.pop_front();
  }
}

void SwappyPolicy::update_swap_interval() {
  // updateSwapInterval.
  if (!config_.auto_swap_interval) return;
  // FrameDurations::hasEnoughSamples: the window spans more than 2 s.
  if (window_.empty() || window_.back().at - window_.front().at <= sample_window) return;
  // getAverageFrameTime (sum / count) and FrameDuration::getTime: 0 for an empty
  // duration, else max(cpu, gpu) + FRAME_MARGIN pipelined, cpu + gpu + FRAME_MARGIN not;
  // with no GPU time the two are the same.
  const Nanos average_cpu = window_sum_ / static_cast<std::int64_t>(window_.size());
  const Nanos pipeline_time = average_cpu == Nanos::zero() ? Nanos::zero() : average_cpu + frame_margin;
  const Nanos non_pipeline_time = pipeline_time;
  // "calculate the new swap interval based on average frame time assume we are in
  // pipeline mode (prefer higher swap interval rather than turning off pipeline mode)"
  const int new_interval = swap_interval_for(pipeline_time);
  const Nanos upper = period() * swap_interval_;
  const Nanos lower = period() * (swap_interval_ - 1) - frame_margin;
  // getMissedFramePercent: round(missed * 100.0f / count).
  const int missed_percent =
      static_cast<int>(std::lround(static_cast<float>(misses_) * 100.0f / static_cast<float>(window_.size())));
  const auto swap_faster_condition = [&] {
    // swapFasterCondition: mSwapDuration <= refreshPeriod * (mAutoSwapInterval - 1) + 1us.
    return config_.swap_duration <= period() * (swap_interval_ - 1) + duration_rounding_margin;
  };

  const int interval_before = swap_interval_;
  const bool pipelined_before = pipelined_;
  bool changed = false;
  if (missed_percent > frame_drop_threshold) {
    // swapSlower: grow the interval (to the new one, or by one) while the current swap
    // duration is within the threshold; pipelining goes on either way.
    const bool fits_upper = pipeline_time <= upper;
    const bool within_threshold = period() * swap_interval_ <= config_.max_auto_swap_duration + frame_margin;
    if ((pipelined_ || !fits_upper) && within_threshold) {
      const int before = swap_interval_;
      swap_interval_ = new_interval > swap_interval_ ? new_interval : swap_interval_ + 1;
      changed = swap_interval_ != before;
    }
    pipelined_ = true;
  } else if (missed_percent == 0 && swap_faster_condition() && pipeline_time < lower) {
    // swapFaster: shrink one period at a time down to the new interval, while the game's
    // swap duration still fits; pipelining goes on after a change.
    const int before = swap_interval_;
    while (new_interval < swap_interval_ && swap_faster_condition()) --swap_interval_;
    if (swap_interval_ != before) {
      changed = true;
      pipelined_ = true;
    }
  } else if (config_.auto_pipeline && pipelined_ &&
             static_cast<double>(non_pipeline_time.count()) * (100.0 + non_pipeline_percent) / 100.0 <
                 static_cast<double>(upper.count())) {
    // "To be very conservative, switch to non-pipeline if frame time * 50% fits".
    pipelined_ = false;
    changed = true;
  }
  if (swap_interval_ != interval_before) ++interval_changes_;
  if (pipelined_ != pipelined_before) ++pipeline_changes_;
  if (changed) {
    // configChanged: mFrameDurations.clear().
    window_.clear();
    window_sum_ = Nanos::zero();
    misses_ = 0;
  }
}

FramePlan SwappyPolicy::on_begin_frame(Nanos now) {
  if (!started_) {
    // The first frame starts the simulation and Swappy's first frame (startFrame).
    started_ = true;
    step_.start(now);
    start_frame(now);
  }
  FramePlan plan;
  plan.planned_start = now;
  step_.fill(plan);
  // waitForNextFrame: only while refreshPeriod * mAutoSwapInterval <= the threshold does
  // Swappy wait and set a presentation time; otherwise the present goes at once.
  if (presentation_needed()) {
    if (pipelined_) {
      // Pipelined: onPreSwap waits for the target vsync (waitUntilTargetFrame), then swaps;
      // startFrame's presentation time is one more interval on (the frame latches to the
      // next vblank here; on a display that shows presents when made it is shown at once).
      plan.present_at = config_.vblank_latch ? target_ + config_.vblank_margin : target_;
    } else {
      // Not pipelined: no wait before the swap; the presentation time (startFrame: the tick
      // + mAutoSwapInterval periods) is the target vsync, so the present is held until the
      // vblank before it (latching) or until it (shown when made).
      plan.present_at =
          config_.vblank_latch ? grid_.nearest(target_ - period()) + config_.vblank_margin : target_;
    }
  }
  return plan;
}

void SwappyPolicy::on_end_render(Nanos now) {
  // onPreSwap: pipelined, waitForNextFrame measures the frame before its wait (the hold).
  if (pipelined_) add_frame(now);
  swapped_ = now;
  phase_ = Phase::post_swap;
}

void SwappyPolicy::on_present_call(Nanos call) { swapped_ += call; }

Action SwappyPolicy::on_next(Nanos now) {
  if (phase_ == Phase::post_swap) {
    phase_ = Phase::post_wait;
    if (!pipelined_) {
      // onPostSwap, not pipelined: waitForNextFrame after the swap, then wait for the
      // target vsync (waitUntilTargetFrame) when a presentation time is used. On Android
      // the compositor holds a present with a presentation time and eglSwapBuffers returns;
      // here the loop held it: the frame is measured at the end of its swap call, without
      // the hold.
      add_frame(swapped_);
      if (presentation_needed() && now < target_) return Action{ActionKind::wait, Nanos::zero(), target_};
    }
  }
  if (phase_ == Phase::post_wait) {
    // onPostSwap: updateSwapInterval, then startFrame; the game's frame then begins with
    // its fixed-step simulation.
    update_swap_interval();
    start_frame(now);
    note(step_.read(now));
    phase_ = Phase::update;
  }
  detail::PeerNote n;
  const auto step = step_.step(n);
  note(n);
  if (step) return Action{ActionKind::update, *step, Nanos::zero()};
  return Action{ActionKind::render, Nanos::zero(), Nanos::zero()};
}

void SwappyPolicy::note(const detail::PeerNote& n) {
  if (n.events != event_none) note_event(n.events);
  if (n.dropped > Nanos::zero()) note_dropped(n.dropped);
}

void SwappyPolicy::on_observe_display(std::int64_t, Nanos display) {
  // Swappy's ticks are the panel's vsync (Choreographer): on a latching display the grid
  // follows the reported vblanks; elsewhere the ticks are the configured grid.
  if (config_.vblank_latch) grid_.observe(display, true);
}

}  // namespace pacer
