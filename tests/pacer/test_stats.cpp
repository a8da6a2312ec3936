// The metrics of docs/log-format.md against values computed by hand on tiny logs.
#include <gtest/gtest.h>

#include <vector>

#include "pacer/load_profile.hpp"
#include "pacer/policies.hpp"
#include "pacer/simulator.hpp"
#include "pacer/stats.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {
/// Frames shown at the given times (ms), each showing the given animation time (ms).
std::vector<FrameRecord> frames(std::vector<std::int64_t> shown, std::vector<std::int64_t> anim) {
  std::vector<FrameRecord> out;
  for (std::size_t i = 0; i < shown.size(); ++i) {
    FrameRecord r;
    r.frame = static_cast<std::int64_t>(i);
    r.present = Nanos{shown[i] * 1'000'000};
    r.cpu_start = r.present - 2_ms;
    r.planned_start = r.cpu_start - Nanos{static_cast<std::int64_t>(i) * 100'000};  // 0.1 ms more late each frame
    r.render = 2_ms;
    r.animation_time = Nanos{anim[i] * 1'000'000};
    out.push_back(r);
  }
  return out;
}
}  // namespace

TEST(Stats, IntervalsAnimationErrorAndLateness) {
  // Shown at 0, 16, 32, 48, 80 (a 32 ms gap); the world advances 16, 16, 20, 32.
  const auto r = frames({0, 16, 32, 48, 80}, {0, 16, 32, 52, 84});
  const Summary s = summarize(r);
  EXPECT_EQ(s.frames, 5);
  EXPECT_DOUBLE_EQ(s.duration_ms, 80.0);
  EXPECT_DOUBLE_EQ(s.average_fps, 4 * 1000.0 / 80.0);
  EXPECT_DOUBLE_EQ(s.interval_mean_ms, 20.0);
  EXPECT_DOUBLE_EQ(s.interval_p50_ms, 16.0);
  EXPECT_DOUBLE_EQ(s.interval_max_ms, 32.0);
  // |animation error|: |16-16|, |16-16|, |20-16|, |32-32| -> 0, 0, 4, 0.
  EXPECT_DOUBLE_EQ(s.anim_error_p50_ms, 0.0);
  EXPECT_DOUBLE_EQ(s.anim_error_max_ms, 4.0);
  EXPECT_DOUBLE_EQ(s.anim_error_p99_ms, 4.0);
  // Lateness 0, 0.1, 0.2, 0.3, 0.4 ms: nearest-rank p50 = 0.2.
  EXPECT_NEAR(s.lateness_p50_ms, 0.2, 1e-12);
  // Latency: each frame starts 2 ms before it is shown (no display time: its present).
  EXPECT_DOUBLE_EQ(s.latency_p50_ms, 2.0);
  EXPECT_NEAR(s.lateness_p99_ms, 0.4, 1e-12);
  // Busy: over the loop's time from the first frame's start to the last's, the work of the
  // frames before the last (each lies between its start and the next): 4 renders of 2 ms.
  EXPECT_DOUBLE_EQ(s.busy_share, 8.0 / 80.0);
}

TEST(Stats, StutterIsAnIntervalOverTwoAndAHalfTimesTheMovingAverage) {
  // 10 intervals of 10 ms, then one of 30 ms (3x the average: a stutter), then 10 ms.
  std::vector<std::int64_t> shown{0};
  for (int i = 0; i < 10; ++i) shown.push_back(shown.back() + 10);
  shown.push_back(shown.back() + 30);
  shown.push_back(shown.back() + 10);
  const auto r = frames(shown, shown);
  const Summary s = summarize(r);
  EXPECT_EQ(s.stutters, 1);
  EXPECT_DOUBLE_EQ(s.stutter_time_pct, 100.0 * 30.0 / 140.0);
  EXPECT_DOUBLE_EQ(s.anim_error_max_ms, 0.0);
  // The slowest 1% of 12 intervals is one interval: 30 ms -> 1% low 33.3 fps; P1 uses the p99 frame time.
  EXPECT_NEAR(s.low1_fps, 1000.0 / 30.0, 1e-9);
  EXPECT_NEAR(s.p1_fps, 1000.0 / 30.0, 1e-9);
}

TEST(Stats, AStutterIsReadAtTheMicrosecondSoAGridTieIsNone) {
  // A 60 Hz grid whose vblanks are rounded to whole nanoseconds: twenty intervals averaging
  // 1.2 periods (16 of one period, 4 of two), then one of three periods, exactly 2.5 x the
  // average, and a nanosecond over (another rounding) is no stutter either. A microsecond
  // over is one.
  const auto vblank = [](std::int64_t k) { return (k * 1'000'000'000 + 30) / 60; };  // rounded to the ns
  const auto with_last_gap = [&](std::int64_t extra_ns) {
    StutterDetector d;
    std::int64_t k = 0, prev = vblank(0);
    bool last = false;
    for (int i = 0; i < 21; ++i) {
      k += i == 20 ? 3 : (i % 5 == 4 ? 2 : 1);
      const std::int64_t at = vblank(k) + (i == 20 ? extra_ns : 0);
      last = d.add(static_cast<double>(at - prev) / 1e6);
      prev = at;
    }
    return last;
  };
  EXPECT_FALSE(with_last_gap(0));
  EXPECT_FALSE(with_last_gap(1));
  EXPECT_TRUE(with_last_gap(1'100));
  EXPECT_DOUBLE_EQ(StutterDetector::tolerance_ms, 0.001);
}

TEST(Stats, DisplayTimeWinsOverPresentTimeAndWarmupIsSkipped) {
  auto r = frames({0, 10, 20, 30}, {0, 10, 20, 30});
  for (auto& f : r) f.display = f.present + 5_ms;
  r[3].display = r[3].present + 9_ms;  // shown 4 ms later than its present suggests
  const Summary s = summarize(r, {.warmup_frames = 1});
  EXPECT_EQ(s.frames, 3);
  EXPECT_DOUBLE_EQ(s.interval_max_ms, 14.0);
  EXPECT_DOUBLE_EQ(s.anim_error_max_ms, 4.0);
}

TEST(Stats, FramesUntilStableAndRefreshHistogram) {
  auto r = frames({0, 17, 33, 50, 83, 100, 117}, {0, 17, 33, 50, 83, 100, 117});
  const Nanos intervals[] = {16_ms, 16_ms, 20_ms, 24_ms, 24_ms, 24_ms, 24_ms};
  for (std::size_t i = 0; i < r.size(); ++i) r[i].interval = intervals[i];
  EXPECT_EQ(frames_until_stable(r, 1, 3), 2);  // changes at frames 2 and 3, then 3 steady frames
  EXPECT_EQ(frames_until_stable(r, 4, 2), 0);
  EXPECT_EQ(frames_until_stable(r, 1, 10), -1);
  const auto bins = refresh_histogram(r, Nanos{16'666'667});
  ASSERT_EQ(bins.size(), 3u);
  EXPECT_EQ(bins[1], 5);  // 17, 16, 17, 17, 17 ms
  EXPECT_EQ(bins[2], 1);  // 33 ms
}

TEST(Stats, BusyAndWaitShareTheLoopsOwnTime) {
  // The README's worked timeline: 3 frames, 3 ms renders, 1 ms updates, 16 ms apart. Frames 0
  // and 1 are all the loop did in its 32 ms: 7 + 6 ms of work, 9 + 10 ms of waiting (over the
  // span of display times and with the last frame's work, this read 50% and 59%).
  PolicyConfig cfg;
  cfg.sim.step = 5_ms;
  cfg.adaptive.initial_interval = 16_ms;
  cfg.adaptive.shrink = false;
  auto seed = make_pacer("adaptive", cfg);
  const SimRun worked = simulate(*seed, SimCosts::fixed(3_ms, 1_ms), 3);
  const Summary w = summarize(worked.records);
  EXPECT_DOUBLE_EQ(w.busy_share, 13.0 / 32.0);
  EXPECT_DOUBLE_EQ(w.wait_share, 19.0 / 32.0);
  // A loop blocked on a full FIFO queue counts the blocked acquire in its render time (it
  // cannot tell it from work): busy all the time, never more.
  fit_to_display(cfg, *parse_display("fifo:60"));
  auto flipcode = make_pacer("flipcode", cfg);
  SimOptions opt;
  opt.display = *parse_display("fifo:60");
  const SimRun blocked = simulate(*flipcode, SimCosts{[](std::int64_t f) { return f % 120 == 119 ? 40_ms : 6_ms; },
                                                      [](std::int64_t, std::int64_t) { return 500_us; }},
                                  600, opt);
  StatsOptions after_warmup;
  after_warmup.warmup_frames = 60;
  const Summary b = summarize(blocked.records, after_warmup);
  EXPECT_GT(b.busy_share, 0.95);
  EXPECT_LE(b.busy_share + b.wait_share, 1.0 + 1e-12);
}
