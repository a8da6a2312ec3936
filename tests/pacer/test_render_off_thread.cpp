// The adaptive policy with its renders on a render thread (Pacer::set_render_off_thread),
// in virtual time: the loop's thread runs the pacer and the updates; a modelled render
// thread starts each frame's render when the frame is handed over (once it is done with
// the previous one), works `render` and holds the present until its planned time, as
// engine::Loop's threaded mode does (docs/render-thread.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <vector>

#include "pacer/adaptive.hpp"
#include "pacer/frame_driver.hpp"
#include "pacer/policies.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

struct OffThreadRun {
  int frames = 0;  ///< after the warm-up
  int late = 0;    ///< presented over 1 ms after their planned present
  Nanos p99_error{0};  ///< p99 |display - world time shown|
  Nanos span{0};   ///< display of the last frame less the first's, after the warm-up
};

/// 600 frames of a 60 Hz simulation with 6 ms updates and a `render` on the render thread,
/// immediate presents with a 144 Hz rate; `tell`: the policy knows its renders are off thread.
OffThreadRun drive(bool tell, Nanos render) {
  PolicyConfig cfg;
  cfg.sim.step = 16'666'667_ns;
  fit_to_display(cfg, parse_display("immediate:144").value());
  AdaptivePolicy p{cfg.adaptive, cfg.sim};
  if (tell) p.set_render_off_thread(true);
  struct Shown {
    std::int64_t frame;
    Nanos ready, display;
  };
  std::deque<Shown> flight;
  std::vector<Nanos> errors;
  OffThreadRun out;
  Nanos now{0}, free{0}, first{0}, last{0};
  constexpr std::int64_t warmup = 100;
  for (std::int64_t f = 0; f < 600; ++f) {
    // What the render thread learnt by now: each frame's work once ready, its display once shown.
    while (!flight.empty() && flight.front().display <= now) {
      p.observe_gpu(flight.front().frame, render);
      p.observe_display(flight.front().frame, flight.front().display);
      flight.pop_front();
    }
    const FramePlan plan = p.begin_frame(now);
    (void)p.take_record();
    now = std::max(now, free) + 200_us;  // acquire waits for the render thread; the capture
    p.end_render(now);
    const Nanos display = std::max(now + render, plan.present_at);
    free = display;
    flight.push_back({f, now + render, display});
    p.set_presentation(now, now, std::nullopt, TimingSource::cpu);
    if (f >= warmup) {
      ++out.frames;
      if (display > plan.present_at + 1_ms) ++out.late;
      errors.push_back(display > plan.animation_time ? display - plan.animation_time : plan.animation_time - display);
      if (f == warmup) first = display;
      last = display;
    }
    for (Action a = p.next(now); a.kind != ActionKind::render; a = p.next(now)) {
      if (a.kind == ActionKind::update) {
        now += 6_ms;
        p.end_update(now);
      } else {
        now = std::max(now, a.until);
      }
    }
  }
  std::sort(errors.begin(), errors.end());
  out.p99_error = errors[errors.size() * 99 / 100];
  out.span = last - first;
  return out;
}

}  // namespace

TEST(RenderOffThread, PresentsMakeTheirPlannedTimeAndShowTheirWorld) {
  // A 14 ms render thread is the bottleneck (the loop's thread needs 6 ms a frame). Told,
  // the policy plans each display a render after the previous present: on time, each frame
  // showing the world of its display time. Untold, it plans from the loop's thread, where
  // the next frame can start long before the render thread is free: presents come late by
  // that wait, showing a world older than their display.
  const OffThreadRun told = drive(true, 14_ms);
  const OffThreadRun untold = drive(false, 14_ms);
  EXPECT_EQ(told.late, 0);
  EXPECT_LE(told.p99_error, 1_ms);
  EXPECT_GT(untold.late, untold.frames / 2);
  EXPECT_GT(untold.p99_error, 2_ms);
}

TEST(RenderOffThread, TheRateStaysWithinAVblankOfTheRenderThreads) {
  // On time, but not slower than the render thread allows: a frame per render rounded up to
  // the 144 Hz grid (14 ms -> 3 periods, 20.8 ms), not a wider interval.
  const OffThreadRun told = drive(true, 14_ms);
  const double gap_ms = static_cast<double>(told.span.count()) / 1e6 / (told.frames - 1);
  EXPECT_LE(gap_ms, 3 * 6.945 + 0.5);
  EXPECT_GE(gap_ms, 14.0);
}

TEST(RenderOffThread, AFastRenderThreadChangesNothing) {
  // A 2 ms render thread is never the bottleneck: told or not, the same frames.
  const OffThreadRun told = drive(true, 2_ms);
  const OffThreadRun untold = drive(false, 2_ms);
  EXPECT_EQ(told.late, 0);
  EXPECT_EQ(told.span, untold.span);
  EXPECT_EQ(told.p99_error, untold.p99_error);
}

namespace {

/// A loop host whose renders run on a modelled render thread (as engine::Loop's threaded
/// mode): acquire waits for it, render() hands the frame over, the present is made there
/// at max(ready, present_at) and reported later, with the render time.
class ThreadedHost final : public FrameHost {
 public:
  bool off = true;  ///< renders_off_thread(); false: the same frames on the loop's thread
  int late = 0;     ///< presents over 1 ms after their planned time
  Nanos now() override { return now_; }
  bool acquire() override {
    now_ = std::max(now_, free_);
    return true;
  }
  void render(const FramePlan& plan) override {
    now_ += 200_us;
    const Nanos display = std::max(now_ + 14_ms, plan.present_at);
    if (plan.present_at >= Nanos::zero() && display > plan.present_at + 1_ms) ++late;
    free_ = display;
    flight_.push_back({frame_++, display});
  }
  PresentResult present(std::int64_t) override { return {}; }
  void update(Nanos) override { now_ += 6_ms; }
  void wait_until(Nanos deadline) override { now_ = std::max(now_, deadline); }
  void hold_until(Nanos) override {}  // the render thread holds
  TimingSource timing_source() const override { return TimingSource::cpu; }
  bool reports_display() const override { return true; }
  void poll_displays(const std::function<void(std::int64_t, Nanos)>& sink) override {
    while (!flight_.empty() && flight_.front().display <= now_) {
      sink(flight_.front().frame, flight_.front().display);
      ready_.push_back(flight_.front().frame);
      flight_.pop_front();
    }
  }
  void poll_render_done(const std::function<void(std::int64_t, Nanos)>& sink) override {
    for (const std::int64_t f : ready_) sink(f, 14_ms);
    ready_.clear();
  }
  bool renders_off_thread() const override { return off; }

 private:
  struct Shown {
    std::int64_t frame;
    Nanos display;
  };
  Nanos now_{0}, free_{0};
  std::int64_t frame_ = 0;
  std::deque<Shown> flight_;
  std::vector<std::int64_t> ready_;
};

int late_through_driver(bool off) {
  PolicyConfig cfg;
  cfg.sim.step = 16'666'667_ns;
  fit_to_display(cfg, parse_display("immediate:144").value());
  AdaptivePolicy p{cfg.adaptive, cfg.sim};
  ThreadedHost host;
  host.off = off;
  FrameDriver driver{host, nullptr};
  driver.use(p);
  for (int i = 0; i < 400; ++i) {
    if (i == 100) host.late = 0;  // after the warm-up
    EXPECT_TRUE(driver.render_frame());
    driver.run_actions();
  }
  driver.finish();
  return host.late;
}

}  // namespace

TEST(RenderOffThread, TheDriverTellsThePacerWhatItsHostSays) {
  // FrameDriver passes FrameHost::renders_off_thread() on (Pacer::set_render_off_thread):
  // the same threaded host presents on time when it says so, late when it does not.
  EXPECT_EQ(late_through_driver(true), 0);
  EXPECT_GT(late_through_driver(false), 150);
}
