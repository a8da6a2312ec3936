#include "pacer/frame_driver.hpp"

#include <algorithm>
#include <stdexcept>

namespace pacer {

void FrameDriver::use(Pacer& pacer) {
  if (pacer_ == &pacer) return;
  if (pacer_) {
    // A non-blocking call left a hold or a wait: the old pacer's frame ends here, as in
    // finish() (a held present is presented now; a pending wait ends with the frame), so the
    // new pacer starts at a frame boundary, not inside a frame it never began.
    if (suspended_ == Suspended::hold) {
      suspended_ = Suspended::none;
      pacer_->hold_present(hold_from_, host_.now());
      present_now();
    }
    suspended_ = Suspended::none;
    pacer_->finish(host_.now());
    take_record();
  }
  pacer_ = &pacer;
  first_ = frame_;
}

Pacer& FrameDriver::in_use() const {
  if (!pacer_) throw std::logic_error("FrameDriver: no pacer in use (call use() before the first frame)");
  return *pacer_;
}

void FrameDriver::deliver_displays() {
  // Display times a present-wait learnt since the last call: into their records, and
  // queued for the pacer.
  if (host_.reports_display()) {
    host_.poll_displays([this](std::int64_t frame, Nanos shown) {
      bool found = false;
      for (auto& r : pending_)
        if (r.frame == frame) {
          r.display = shown;
          found = true;
        }
      // The frame in progress: its record is taken at the next begin_frame.
      if (!found && frame > taken_) early_.push_back({frame, shown});
      while (early_.size() > display_patience) early_.pop_front();
      unseen_.push_back({frame, shown});
    });
  }
  deliver_gpu();
  // The pacer learns when its frames appeared once the loop's time has reached it (a
  // virtual display knows its times in advance), in order.
  const Nanos now = host_.now();
  while (!unseen_.empty() && unseen_.front().at <= now) {
    const Shown s = unseen_.front();
    unseen_.pop_front();
    if (pacer_ && s.frame >= first_) pacer_->observe_display(s.frame - first_, s.at);
  }
}

void FrameDriver::deliver_gpu() {
  // A render thread's frames: how long each took from its start until ready to present.
  host_.poll_render_done([this](std::int64_t frame, Nanos done) {
    if (pacer_ && frame >= first_) pacer_->observe_gpu(frame - first_, done);
  });
  // GPU times the host's timestamp queries learnt: into their records, and to the pacer.
  if (!host_.reports_gpu()) return;
  host_.poll_gpu([this](std::int64_t frame, Nanos gpu) {
    bool found = false;
    for (auto& r : pending_)
      if (r.frame == frame) {
        r.gpu = gpu;
        found = true;
      }
    // The frame in progress (its fence was waited on before its present): taken later.
    if (!found && frame > taken_) early_gpu_.push_back({frame, gpu});
    while (early_gpu_.size() > display_patience) early_gpu_.pop_front();
    if (pacer_ && frame >= first_) pacer_->observe_gpu(frame - first_, gpu);
  });
}

void FrameDriver::take_record() {
  if (auto r = pacer_->take_record()) {
    r->frame += first_;
    taken_ = r->frame;
    for (auto it = early_.begin(); it != early_.end(); ++it)
      if (it->frame == r->frame) {
        r->display = it->at;
        early_.erase(it);
        break;
      }
    for (auto it = early_gpu_.begin(); it != early_gpu_.end(); ++it)
      if (it->frame == r->frame) {
        r->gpu = it->at;
        early_gpu_.erase(it);
        break;
      }
    // Taken before the next render: the host's load is still this frame's.
    if (!r->load_ms) r->load_ms = host_.load_ms();
    pending_.push_back(std::move(*r));
  }
}

void FrameDriver::release_records(bool all) {
  while (!pending_.empty()) {
    const FrameRecord& r = pending_.front();
    if (!all) {
      // Not before a later present (a mailbox may still replace it), and not before its
      // display time unless the host reports none or it is overdue.
      const std::int64_t later = presented_ - r.frame;
      const bool known = (r.display.has_value() || !host_.reports_display()) && (r.gpu.has_value() || !host_.reports_gpu());
      if (later < 1 || (!known && later < static_cast<std::int64_t>(display_patience))) break;
    }
    if (sink_) sink_(r);
    pending_.pop_front();
  }
}

bool FrameDriver::begin_render() {
  Pacer& p = in_use();
  deliver_displays();
  p.set_render_off_thread(host_.renders_off_thread());
  plan_ = p.begin_frame(host_.now());
  take_record();
  while (!host_.acquire()) {
    if (!host_.wait_until_ready()) {
      p.end_render(host_.now());
      return false;
    }
  }
  host_.render(plan_);
  p.end_render(host_.now());
  return true;
}

void FrameDriver::present_now() {
  Pacer& p = in_use();
  const Nanos issued = host_.now();
  const PresentResult shown = host_.present(frame_);
  p.set_presentation(issued, host_.now(), shown.display, host_.timing_source());
  if (shown.replaced) {
    // Replaced in a mailbox before its vblank: never shown, never reported.
    for (auto& r : pending_)
      if (r.frame == *shown.replaced) r.display.reset();
    std::erase_if(unseen_, [&](const Shown& s) { return s.frame == *shown.replaced; });
  }
  if (shown.display) unseen_.push_back({frame_, *shown.display});
  presented_ = frame_++;
  release_records(false);
}

bool FrameDriver::render_frame() {
  Pacer& p = in_use();
  if (suspended_ == Suspended::wait) run_actions();  // a non-blocking call left a wait
  if (suspended_ == Suspended::hold) {
    // A non-blocking call left this frame's present held: hold it here.
    suspended_ = Suspended::none;
    host_.hold_until(due_);
    p.hold_present(hold_from_, host_.now());
    present_now();
    return true;
  }
  if (!begin_render()) return false;
  // A planned present is held until its time: a deliberate wait, after the work.
  if (plan_.present_at >= Nanos::zero()) {
    const Nanos from = host_.now();
    if (plan_.present_at > from) {
      host_.hold_until(plan_.present_at);
      p.hold_present(from, host_.now());
    }
  }
  present_now();
  return true;
}

FrameDriver::Stop FrameDriver::render_due() {
  Pacer& p = in_use();
  if (suspended_ == Suspended::wait) return Stop::wait;  // the actions come first
  if (suspended_ == Suspended::hold) {
    const Nanos woke = host_.now();
    if (woke < due_) return Stop::hold;  // not yet: nothing happens
    suspended_ = Suspended::none;
    p.hold_present(hold_from_, woke);
    present_now();
    return Stop::presented;
  }
  if (!begin_render()) return Stop::gave_up;
  if (plan_.present_at >= Nanos::zero()) {
    const Nanos from = host_.now();
    if (plan_.present_at > from) {
      suspended_ = Suspended::hold;
      due_ = plan_.present_at;
      hold_from_ = from;
      return Stop::hold;
    }
  }
  present_now();
  return Stop::presented;
}

void FrameDriver::run_actions() {
  Pacer& p = in_use();
  if (suspended_ == Suspended::hold) render_frame();  // the held present comes first
  if (suspended_ == Suspended::wait) {
    // A non-blocking call left a wait (its deadline was ahead then): wait here.
    suspended_ = Suspended::none;
    host_.wait_until(due_);
    p.observe_wake(due_, host_.now());
  }
  for (;;) {
    deliver_displays();
    const Nanos now = host_.now();
    const Action act = p.next(now);
    switch (act.kind) {
      case ActionKind::update:
        host_.update(act.step);
        p.end_update(host_.now());
        break;
      case ActionKind::wait:
        host_.wait_until(act.until);
        if (act.until > now) p.observe_wake(act.until, host_.now());
        break;
      case ActionKind::render:
        return;
    }
  }
}

FrameDriver::Stop FrameDriver::actions_due() {
  Pacer& p = in_use();
  if (suspended_ == Suspended::hold) return Stop::hold;  // the present comes first
  if (suspended_ == Suspended::wait) {
    const Nanos woke = host_.now();
    if (woke < due_) return Stop::wait;  // not yet: nothing happens
    suspended_ = Suspended::none;
    p.observe_wake(due_, woke);
  }
  for (;;) {
    deliver_displays();
    const Nanos now = host_.now();
    const Action act = p.next(now);
    switch (act.kind) {
      case ActionKind::update:
        host_.update(act.step);
        p.end_update(host_.now());
        break;
      case ActionKind::wait:
        // A deadline already passed is no wait (the blocking wait_until returns at once).
        if (act.until > now) {
          suspended_ = Suspended::wait;
          due_ = act.until;
          return Stop::wait;
        }
        break;
      case ActionKind::render:
        return Stop::render;
    }
  }
}

void FrameDriver::finish() {
  if (!pacer_) return;
  if (suspended_ == Suspended::hold) {
    // A non-blocking run ended with a present held: it is presented now, not waited for.
    suspended_ = Suspended::none;
    pacer_->hold_present(hold_from_, host_.now());
    present_now();
  }
  suspended_ = Suspended::none;  // a pending wait ends with the frame (its time is wait time)
  pacer_->finish(host_.now());
  take_record();
  // The last frames' display and GPU times, where already learnt (it never waits).
  deliver_displays();
  release_records(true);
}

}  // namespace pacer
