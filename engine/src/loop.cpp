#include "engine/loop.hpp"

#include <stdexcept>

namespace engine {

/// The loop as the frame driver's host: the real (or manual) clock, the waiter, the
/// frame target and the scene.
class Loop::Host final : public pacer::FrameHost {
 public:
  explicit Host(Loop& loop) : loop_{loop} {}
  Nanos now() override { return loop_.clock_.now(); }
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
  pacer::PresentResult present(std::int64_t frame) override { return loop_.target_.present(frame); }
  void update(Nanos step) override { loop_.scene_.fixed_update(step); }
  void wait_until(Nanos deadline) override { loop_.waiter_.wait_until(deadline); }
  pacer::TimingSource timing_source() const override { return loop_.target_.timing_source(); }
  bool reports_display() const override { return loop_.target_.reports_display(); }
  void poll_displays(const std::function<void(std::int64_t, Nanos)>& sink) override {
    loop_.target_.drain_displayed(sink);
  }
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

RunResult Loop::run(const RunLimits& limits) {
  if (!pacer_ && !next_pacer_) throw std::logic_error("engine::Loop::run: no pacer set");
  RunResult result;
  const Nanos start = clock_.now();
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
    const bool time_done = limits.max_duration > Nanos::zero() && clock_.now() - start >= limits.max_duration;
    if (frames_done || time_done) break;
    driver_->run_actions();
  }
  driver_->finish();
  result.frames = frames_this_run;
  result.duration = clock_.now() - start;
  return result;
}

}  // namespace engine
