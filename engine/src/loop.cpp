#include "engine/loop.hpp"

#include <stdexcept>

namespace engine {

namespace {
// A frame whose display time has not arrived after this many later frames is logged without it.
constexpr std::size_t display_patience = 8;
}  // namespace

void Loop::flush_records(bool all) {
  if (target_.reports_display()) {
    target_.drain_displayed([this](std::int64_t frame, Nanos shown) {
      // The pacer learns when its frames really appeared (the vblank grid, late frames).
      if (pacer_ && frame >= pacer_first_frame_) pacer_->observe_display(frame - pacer_first_frame_, shown);
      for (auto& r : pending_)
        if (r.frame == frame) {
          r.display = shown;
          r.timing_source = pacer::TimingSource::present_wait;
        }
    });
  }
  while (!pending_.empty()) {
    const bool known = !target_.reports_display() || pending_.front().display.has_value();
    if (!all && !known && pending_.size() <= display_patience) break;
    if (on_record) on_record(pending_.front());
    pending_.pop_front();
  }
}

RunResult Loop::run(const RunLimits& limits) {
  if (!pacer_ && !next_pacer_) throw std::logic_error("engine::Loop::run: no pacer set");
  RunResult result;
  const Nanos start = clock_.now();
  std::int64_t frames_this_run = 0;

  auto take = [&](pacer::Pacer& p) {
    if (auto r = p.take_record()) {
      r->frame += pacer_first_frame_;
      // Taken before the next render: the scene's load is still this frame's.
      if (const double load = scene_.load_ms(); load > 0) r->load_ms = load;
      pending_.push_back(*r);
    }
  };

  for (;;) {
    if (poll && !poll()) {
      result.quit_requested = true;
      break;
    }
    if (next_pacer_) {
      if (pacer_) {
        pacer_->finish(clock_.now());
        take(*pacer_);
      }
      pacer_ = std::move(next_pacer_);
      pacer_first_frame_ = frame_;
    }
    pacer::Pacer& p = *pacer_;
    const pacer::FramePlan plan = p.begin_frame(clock_.now());
    take(p);
    flush_records(false);

    bool closed = false;
    while (!target_.acquire()) {
      if (!target_.wait_until_ready()) {
        closed = true;
        break;
      }
    }
    if (closed) {
      result.quit_requested = true;
      p.end_render(clock_.now());
      break;
    }
    draw_.clear();
    scene_.render(interpolate_ ? plan.alpha : 1.0, draw_);
    target_.draw(draw_);
    if (plan.present_at >= Nanos::zero()) waiter_.wait_until(plan.present_at);
    target_.present(frame_);
    const Nanos presented = clock_.now();
    p.end_render(presented);
    p.set_presentation(presented, std::nullopt,
                       target_.reports_display() ? pacer::TimingSource::present_wait : pacer::TimingSource::cpu);
    if (on_presented) on_presented(plan);
    ++frame_;
    ++frames_this_run;

    const bool frames_done = limits.max_frames > 0 && frames_this_run >= limits.max_frames;
    const bool time_done = limits.max_duration > Nanos::zero() && clock_.now() - start >= limits.max_duration;
    if (frames_done || time_done) break;

    for (bool more = true; more;) {
      const pacer::Action act = p.next(clock_.now());
      switch (act.kind) {
        case pacer::ActionKind::update:
          scene_.fixed_update(act.step);
          p.end_update(clock_.now());
          break;
        case pacer::ActionKind::wait:
          waiter_.wait_until(act.until);
          break;
        case pacer::ActionKind::render:
          more = false;
          break;
      }
    }
  }
  pacer_->finish(clock_.now());
  take(*pacer_);
  flush_records(true);
  result.frames = frames_this_run;
  result.duration = clock_.now() - start;
  return result;
}

}  // namespace engine
