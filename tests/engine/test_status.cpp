// The samples' status reporter: bounded memory, the same run summary as summarize().
#include <gtest/gtest.h>

#include <vector>

#include "engine/status.hpp"

using namespace pacer::literals;

namespace {
std::vector<pacer::FrameRecord> run_of(std::int64_t n) {
  std::vector<pacer::FrameRecord> out;
  pacer::Nanos t{0};
  for (std::int64_t i = 0; i < n; ++i) {
    pacer::FrameRecord r;
    r.frame = i;
    t += (i % 97 == 0) ? 33_ms : 16_ms;
    r.present = t;
    r.animation_time = t - ((i % 5 == 0) ? 1_ms : 0_ms);
    r.cpu_start = t - 10_ms;
    r.planned_start = r.cpu_start - pacer::Nanos{(i % 13) * 10'000};
    r.render = 3_ms;
    out.push_back(r);
  }
  return out;
}
}  // namespace

TEST(StatusReporter, ShortRunSummaryIsExactForAnyWarmup) {
  const auto records = run_of(200);
  engine::StatusReporter status{true};
  for (const auto& r : records) status.add(r);
  EXPECT_EQ(status.frames(), 200);
  for (std::int64_t warmup : {0, 7, 20}) {
    const pacer::Summary a = status.summarize_run(warmup), b = pacer::summarize(records, {.warmup_frames = warmup});
    EXPECT_EQ(a.frames, b.frames);
    EXPECT_EQ(a.interval_p99_ms, b.interval_p99_ms);
    EXPECT_EQ(a.anim_error_p99_ms, b.anim_error_p99_ms);
    EXPECT_EQ(a.lateness_p99_ms, b.lateness_p99_ms);
  }
}

TEST(StatusReporter, LongRunStreamsWithTheSamplesWarmup) {
  const auto records = run_of(100'000);  // past the head and past the sketch's exact limit
  engine::StatusReporter status{true};
  for (const auto& r : records) status.add(r);
  const pacer::Summary a = status.summarize_run(30), b = pacer::summarize(records, {.warmup_frames = 30});
  EXPECT_EQ(a.frames, b.frames);
  EXPECT_EQ(a.stutters, b.stutters);
  EXPECT_EQ(a.interval_max_ms, b.interval_max_ms);
  EXPECT_NEAR(a.interval_p99_ms, b.interval_p99_ms, b.interval_p99_ms * pacer::QuantileSketch::relative_error);
  EXPECT_NEAR(a.lateness_p99_ms, b.lateness_p99_ms, b.lateness_p99_ms * pacer::QuantileSketch::relative_error);
  EXPECT_DOUBLE_EQ(a.average_fps, b.average_fps);
}
