// The adaptive policy with its renders on a render thread (Pacer::set_render_off_thread),
// in virtual time: FrameDriver drives the pacer and the updates on the loop's thread; a
// modelled render thread starts each frame's render when the frame is handed over (once it
// is done with the previous one), works `render` and holds the present until its planned
// time, as engine::Loop's threaded mode does (docs/render-thread.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <vector>

#include "pacer/adaptive.hpp"
#include "pacer/frame_driver.hpp"
#include "pacer/policies.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

/// A loop host whose renders run on a modelled render thread: acquire waits for it,
/// render() hands the frame over (a 200 us capture), the present is made there at
/// max(ready, present_at) and reported once the loop's time reaches it, with the render time.
/// 6 ms per update. Counts frames from `warmup` on.
class ThreadedHost final : public FrameHost {
 public:
  ThreadedHost(bool off, std::function<Nanos(std::int64_t)> render) : off_{off}, render_{std::move(render)} {}
  static constexpr std::int64_t warmup = 100;
  int frames = 0;             ///< after the warm-up
  int late = 0;               ///< presented over 1 ms after their planned present
  std::vector<Nanos> errors;  ///< |display - world time shown|
  Nanos first{0}, last{0};    ///< displays of the first and last frame after the warm-up

  Nanos now() override { return now_; }
  bool acquire() override {
    now_ = std::max(now_, free_);
    return true;
  }
  void render(const FramePlan& plan) override {
    now_ += 200_us;
    const Nanos work = render_(frame_);
    const Nanos display = std::max(now_ + work, plan.present_at);
    free_ = display;
    if (frame_ >= warmup) {
      ++frames;
      if (display > plan.present_at + 1_ms) ++late;
      errors.push_back(display > plan.animation_time ? display - plan.animation_time : plan.animation_time - display);
      if (frame_ == warmup) first = display;
      last = display;
    }
    flight_.push_back({frame_++, display, work});
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
      ready_.push_back({flight_.front().frame, flight_.front().work});
      flight_.pop_front();
    }
  }
  void poll_render_done(const std::function<void(std::int64_t, Nanos)>& sink) override {
    for (const auto& [f, work] : ready_) sink(f, work);
    ready_.clear();
  }
  bool renders_off_thread() const override { return off_; }

 private:
  struct Shown {
    std::int64_t frame;
    Nanos display;
    Nanos work;
  };
  bool off_;      ///< renders_off_thread(); false: the host does not say so
  std::function<Nanos(std::int64_t)> render_;  ///< the render thread's work on frame N
  Nanos now_{0}, free_{0};
  std::int64_t frame_ = 0;
  std::deque<Shown> flight_;
  std::vector<std::pair<std::int64_t, Nanos>> ready_;
};

struct OffThreadRun {
  int frames = 0;
  int late = 0;
  Nanos p99_error{0};  ///< p99 |display - world time shown|
  Nanos span{0};       ///< display of the last frame less the first's, after the warm-up
};

/// `frames` frames of a 60 Hz simulation, immediate presents with a 144 Hz rate, through
/// FrameDriver; `off`: the host says its renders are off thread. `counts_gpu`:
/// AdaptiveConfig::busy_counts_gpu (a host that does not say so has its render thread's
/// reported time counted as busy time, as a GPU time is).
OffThreadRun drive(bool off, std::function<Nanos(std::int64_t)> render, int frames = 600, bool counts_gpu = true) {
  PolicyConfig cfg;
  cfg.sim.step = 16'666'667_ns;
  fit_to_display(cfg, parse_display("immediate:144").value());
  cfg.adaptive.busy_counts_gpu = counts_gpu;
  AdaptivePolicy p{cfg.adaptive, cfg.sim};
  ThreadedHost host{off, std::move(render)};
  FrameDriver driver{host, nullptr};
  driver.use(p);
  for (int i = 0; i < frames; ++i) {
    EXPECT_TRUE(driver.render_frame());
    driver.run_actions();
  }
  driver.finish();
  std::sort(host.errors.begin(), host.errors.end());
  return {host.frames, host.late, host.errors[host.errors.size() * 99 / 100], host.last - host.first};
}

OffThreadRun drive(bool off, Nanos render, int frames = 600, bool counts_gpu = true) {
  return drive(off, [render](std::int64_t) { return render; }, frames, counts_gpu);
}

}  // namespace

TEST(RenderOffThread, PresentsMakeTheirPlannedTimeAndShowTheirWorld) {
  // A 14 ms render thread is the bottleneck (the loop's thread needs 6 ms a frame). Told,
  // the policy plans each display a render after the previous present: on time, each frame
  // showing the world of its display time. Untold, it plans from the loop's thread, where
  // the next frame can start long before the render thread is free: presents come late by
  // that wait, showing a world older than their display. (Untold, the render thread's
  // reported time also counts as busy time, as a GPU time does, and that alone keeps the
  // interval long enough: busy_counts_gpu is off here to see the plan's part.)
  const OffThreadRun told = drive(true, 14_ms);
  const OffThreadRun untold = drive(false, 14_ms, 600, false);
  EXPECT_EQ(told.late, 0);
  EXPECT_LE(told.p99_error, 1_ms);
  EXPECT_GT(untold.late, untold.frames / 2);
  EXPECT_GT(untold.p99_error, 2_ms);
  const OffThreadRun untold_counted = drive(false, 14_ms);
  EXPECT_EQ(untold_counted.late, 0);
  EXPECT_LE(untold_counted.p99_error, 1_ms);
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

TEST(RenderOffThread, TheDriverTellsThePacerWhatItsHostSays) {
  // FrameDriver passes FrameHost::renders_off_thread() on (Pacer::set_render_off_thread):
  // the same threaded host presents on time when it says so, late when it does not (with
  // busy_counts_gpu off: see above).
  EXPECT_EQ(drive(true, 14_ms, 400, false).late, 0);
  EXPECT_GT(drive(false, 14_ms, 400, false).late, 150);
}

TEST(RenderOffThread, ARenderThreadIsPlannedOnItsLongestRecentRender) {
  // The render thread's work stretches now and then (12 ms, every 8th frame 15 ms: it shares
  // the cores). Planned on a typical render, as the loop's own thread is, the stretched
  // frames would present late, each an animation error; a render thread is planned on its
  // longest recent render + render_thread_margin instead, so none is late.
  const auto stretched = [](std::int64_t f) { return f % 8 == 0 ? 15_ms : 12_ms; };
  const OffThreadRun run = drive(true, stretched);
  EXPECT_EQ(run.late, 0);
  EXPECT_LE(run.p99_error, 1_ms);
  // The price is rate: a frame per longest render + margin (17.45 ms with the hand-over and
  // present_margin), rounded up to the 144 Hz grid at most (three periods, 20.8 ms).
  const double gap_ms = static_cast<double>(run.span.count()) / 1e6 / (run.frames - 1);
  EXPECT_GE(gap_ms, 15.0 + 2.0);
  EXPECT_LE(gap_ms, 3 * 6.945 + 0.5);
}
