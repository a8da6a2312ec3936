// Bounded resources: the streaming summary, the record sink of the simulator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "pacer/policies.hpp"
#include "pacer/simulator.hpp"
#include "pacer/stats.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

/// A deterministic spread of values: frame times around 16.7 ms with rare long ones.
double value_at(std::int64_t i) {
  const auto h = static_cast<std::uint64_t>(i) * 0x9e3779b97f4a7c15ULL;
  const double u = static_cast<double>(h >> 11) / 9007199254740992.0;  // [0, 1)
  return u < 0.995 ? 16.0 + 2.0 * u : 33.0 + 100.0 * u;
}

}  // namespace

TEST(QuantileSketch, ExactBelowTheLimitLikePercentile) {
  QuantileSketch q;
  std::vector<double> all;
  for (std::int64_t i = 0; i < 1000; ++i) {
    q.add(value_at(i) - 17);  // negative values too
    all.push_back(value_at(i) - 17);
  }
  EXPECT_TRUE(q.exact());
  for (double p : {0.0, 1.0, 50.0, 99.0, 99.9, 100.0}) EXPECT_EQ(q.percentile(p), percentile(all, p)) << p;
  std::sort(all.begin(), all.end(), std::greater<>{});
  EXPECT_DOUBLE_EQ(q.sum_of_largest(10), all[0] + all[1] + all[2] + all[3] + all[4] + all[5] + all[6] + all[7] + all[8] + all[9]);
}

TEST(QuantileSketch, HistogramAboveTheLimitWithinTheDocumentedError) {
  QuantileSketch q;
  std::vector<double> all;
  const std::int64_t n = static_cast<std::int64_t>(QuantileSketch::exact_limit) * 3;
  for (std::int64_t i = 0; i < n; ++i) {
    const double v = (i % 7 == 0 ? -1 : 1) * value_at(i);
    q.add(v);
    all.push_back(v);
  }
  q.add(0.0);
  all.push_back(0.0);
  EXPECT_FALSE(q.exact());
  EXPECT_EQ(q.count(), n + 1);
  for (double p : {0.0, 1.0, 10.0, 14.0, 15.0, 50.0, 90.0, 99.0, 99.9, 100.0}) {
    const double exact = percentile(all, p);
    EXPECT_NEAR(q.percentile(p), exact, std::abs(exact) * QuantileSketch::relative_error + 1e-12) << p;
  }
  std::sort(all.begin(), all.end(), std::greater<>{});
  for (std::int64_t k : {1, 100, 2000}) {
    double exact = 0;
    for (std::int64_t i = 0; i < k; ++i) exact += all[static_cast<std::size_t>(i)];
    EXPECT_NEAR(q.sum_of_largest(k), exact, exact * QuantileSketch::relative_error) << k;
  }
  EXPECT_EQ(q.max(), all.front());
  EXPECT_EQ(q.min(), all.back());
}

TEST(QuantileSketch, MemoryDoesNotGrowWithTheValues) {
  QuantileSketch q;
  for (std::int64_t i = 0; i < 200'000; ++i) q.add(value_at(i));
  const std::size_t after_200k = q.memory_bytes();
  for (std::int64_t i = 0; i < 2'000'000; ++i) q.add(value_at(i) * 1e6);
  EXPECT_EQ(q.memory_bytes(), after_200k);
  EXPECT_LT(after_200k, std::size_t{1} << 20);  // 1 MiB
  q.add(std::nan(""));  // ignored
  q.add(1e300);         // counted at the top, max stays exact
  EXPECT_EQ(q.max(), 1e300);
  EXPECT_EQ(q.percentile(100), 1e300);
}

TEST(SummaryBuilder, FedOneAtATimeEqualsSummarize) {
  auto p = make_pacer("adaptive", {});
  SimOptions opt;
  opt.display = parse_display("fifo:60").value();
  opt.waiter = WaiterKind::precise;
  const SimRun run = simulate(*p, SimCosts::fixed(5_ms, 1_ms), 3000, opt);
  const Summary whole = summarize(run.records, {.warmup_frames = 60});
  SummaryBuilder b{{.warmup_frames = 60}};
  for (const auto& r : run.records) b.add(r);
  const Summary s = b.result();
  EXPECT_EQ(b.seen(), 3000);
  EXPECT_EQ(s.frames, whole.frames);
  EXPECT_EQ(s.frames, 2940);
  EXPECT_EQ(s.average_fps, whole.average_fps);
  EXPECT_EQ(s.interval_p99_ms, whole.interval_p99_ms);
  EXPECT_EQ(s.anim_error_p99_ms, whole.anim_error_p99_ms);
  EXPECT_EQ(s.low01_fps, whole.low01_fps);
  EXPECT_EQ(s.stutters, whole.stutters);
  EXPECT_NEAR(s.average_fps, 60.0, 0.5);
}

TEST(SummaryBuilder, LongRunsStayWithinTheDocumentedError) {
  // 200k frames: past the exact limit, so the percentiles come from the histogram.
  std::vector<FrameRecord> records;
  Nanos t{0};
  for (std::int64_t i = 0; i < 200'000; ++i) {
    FrameRecord r;
    r.frame = i;
    t += from_ms(value_at(i));
    r.present = t;
    r.animation_time = t - from_ms(value_at(i + 1) / 4);
    r.cpu_start = t;
    r.planned_start = t - from_ms(value_at(i + 2) / 10);
    records.push_back(r);
  }
  std::vector<double> intervals, lateness;
  for (std::size_t i = 1; i < records.size(); ++i) intervals.push_back(to_ms(records[i].present - records[i - 1].present));
  for (const auto& r : records) lateness.push_back(to_ms(r.cpu_start - r.planned_start));
  const Summary s = summarize(records);
  const double e = QuantileSketch::relative_error;
  EXPECT_NEAR(s.interval_p50_ms, percentile(intervals, 50), percentile(intervals, 50) * e);
  EXPECT_NEAR(s.interval_p99_ms, percentile(intervals, 99), percentile(intervals, 99) * e);
  EXPECT_NEAR(s.lateness_p99_ms, percentile(lateness, 99), percentile(lateness, 99) * e);
  EXPECT_EQ(s.interval_max_ms, *std::max_element(intervals.begin(), intervals.end()));
  EXPECT_EQ(s.frames, 200'000);
}

TEST(SimulateSink, SeesTheSameRecordsAndKeepsNone) {
  SimOptions opt;
  opt.display = parse_display("fifo:60").value();
  opt.waiter = WaiterKind::precise;
  opt.seed = 3;
  auto a = make_pacer("adaptive", {});
  const SimRun kept = simulate(*a, SimCosts::fixed(5_ms, 1_ms), 500, opt);
  auto b = make_pacer("adaptive", {});
  std::vector<FrameRecord> seen;
  SummaryBuilder summary{{.warmup_frames = 60}};
  const SimRun streamed = simulate(*b, SimCosts::fixed(5_ms, 1_ms), 500, opt, [&](const FrameRecord& r) {
    seen.push_back(r);
    summary.add(r);
  });
  EXPECT_TRUE(streamed.records.empty());
  EXPECT_TRUE(streamed.timeline.empty());  // opt-in
  EXPECT_TRUE(kept.timeline.empty());
  ASSERT_EQ(seen.size(), kept.records.size());
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].present, kept.records[i].present) << i;
    EXPECT_EQ(seen[i].display, kept.records[i].display) << i;
    EXPECT_EQ(seen[i].animation_time, kept.records[i].animation_time) << i;
  }
  EXPECT_EQ(streamed.end, kept.end);
  EXPECT_EQ(summary.result().anim_error_p99_ms, summarize(kept.records, {.warmup_frames = 60}).anim_error_p99_ms);
}

TEST(SimulateSink, TimelineOnlyWhenAsked) {
  SimOptions opt;
  opt.timeline = true;
  auto p = make_pacer("adaptive", {});
  std::int64_t n = 0;
  const SimRun run = simulate(*p, SimCosts::fixed(3_ms, 1_ms), 3, opt, [&](const FrameRecord&) { ++n; });
  EXPECT_EQ(n, 3);
  EXPECT_FALSE(run.timeline.empty());
  EXPECT_EQ(run.timeline.front().kind, TimelineEntry::render);
}
