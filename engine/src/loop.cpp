#include "engine/loop.hpp"

#include <stdexcept>

namespace engine {

/// The loop as the frame driver's host: the real (or manual) clock, the waiter, the
/// frame target and the scene.
class Loop::Host final : public pacer::FrameHost {
 public:
  explicit Host(Loop& loop) : loop_{loop} {}
  Nanos now() override { return loop_.now(); }
  bool acquire() override { return loop_.target_.acquire(); }
  bool wait_until_ready() override { return loop_.target_.wait_until_ready(); }
  void render(const pacer::FramePlan& plan) override {
    loop_.draw_.clear();
    loop_.scene_.render(loop_.interpolate_ ? plan.alpha : 1.0, loop_.draw_);
    loop_.target_.draw(loop_.draw_);
    // A present held to a planned time must not wait behind GPU work: the frame is
    // finished first, as part of its render (the policy's render estimate includes it).
    if (plan.present_at >= Nanos::zero()) loop_.target_.wait_drawn();
  }
  pacer::PresentResult present(std::int64_t frame) override {
    pacer::PresentResult shown = loop_.target_.present(frame);
    if (shown.display) *shown.display += loop_.offset_;  // the clock's time -> the loop's
    return shown;
  }
  void update(Nanos step) override { loop_.scene_.fixed_update(step); }
  // The waiter waits on the clock itself: the loop's deadline less the offset.
  void wait_until(Nanos deadline) override { loop_.waiter_.wait_until(deadline - loop_.offset_); }
  pacer::TimingSource timing_source() const override { return loop_.target_.timing_source(); }
  bool reports_display() const override { return loop_.target_.reports_display(); }
  void poll_displays(const std::function<void(std::int64_t, Nanos)>& sink) override {
    const Nanos offset = loop_.offset_;
    loop_.target_.drain_displayed([&](std::int64_t frame, Nanos shown) { sink(frame, shown + offset); });
  }
  bool reports_gpu() const override { return loop_.target_.reports_gpu(); }
  void poll_gpu(const std::function<void(std::int64_t, Nanos)>& sink) override { loop_.target_.drain_gpu(sink); }
  std::optional<double> load_ms() const override {
    if (const double load = loop_.scene_.load_ms(); load > 0) return load;
    return std::nullopt;
  }

 private:
  Loop& loop_;
};

Loop::Loop(const Clock& clock, Waiter& waiter, FrameTarget& target, Scene& scene)
    : clock_{clock}, waiter_{waiter}, target_{target}, scene_{scene}, host_{std::make_unique<Host>(*this)},
      driver_{std::make_unique<pacer::FrameDriver>(*host_, [this](const pacer::FrameRecord& r) {
        if (on_record) on_record(r);
      })} {}

Loop::~Loop() = default;

Nanos Loop::now() {
  Nanos t = clock_.now() + offset_;
  if (t < latest_) {
    // The clock stepped backwards: the loop's time holds (the step becomes a zero-length
    // gap) and goes on from there; the waiter's deadlines move with it.
    offset_ += latest_ - t;
    t = latest_;
    ++clock_steps_back_;
  }
  latest_ = t;
  return t;
}

RunResult Loop::run(const RunLimits& limits) {
  if (!pacer_ && !next_pacer_) throw std::logic_error("engine::Loop::run: no pacer set");
  try {
    return run_frames(limits);
  } catch (...) {
    // A renderer fault (device or surface lost) or a throwing hook: the frames already
    // presented still reach on_record before the exception goes on (the open one does not).
    driver_->flush_presented();
    throw;
  }
}

RunResult Loop::run_frames(const RunLimits& limits) {
  RunResult result;
  const Nanos start = now();
  std::int64_t frames_this_run = 0;
  for (;;) {
    if (poll && !poll()) {
      result.quit_requested = true;
      break;
    }
    if (next_pacer_) {
      driver_->use(*next_pacer_);  // finishes the pacer in use at this boundary
      pacer_ = std::move(next_pacer_);
    }
    if (!driver_->render_frame()) {
      result.quit_requested = true;  // the window closed while minimized
      break;
    }
    if (on_presented) on_presented(driver_->plan());
    ++frames_this_run;
    const bool frames_done = limits.max_frames > 0 && frames_this_run >= limits.max_frames;
    const bool time_done = limits.max_duration > Nanos::zero() && now() - start >= limits.max_duration;
    if (frames_done || time_done) break;
    driver_->run_actions();
  }
  driver_->finish();
  result.frames = frames_this_run;
  result.duration = now() - start;
  return result;
}

}  // namespace engine
