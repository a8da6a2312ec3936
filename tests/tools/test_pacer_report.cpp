// pacer-report's two passes (tools/pacer-report/html_report.hpp): the streamed summary equals
// the whole-record one, the chart thinning keeps each pixel column's lowest and highest point,
// the second pass takes the records the first one saw.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "html_report.hpp"
#include "pacer/log_reader.hpp"
#include "pacer/log_writer.hpp"
#include "pacer/stats.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

/// A deterministic value in [0, 1) for frame i and stream k.
double unit(std::int64_t i, std::uint64_t k) {
  const auto h = (static_cast<std::uint64_t>(i) + 1) * 0x9e3779b97f4a7c15ULL ^ (k * 0xbf58476d1ce4e5b9ULL);
  return static_cast<double>((h * 0x94d049bb133111ebULL) >> 11) / 9007199254740992.0;
}

/// n frames about 16.7 ms apart with rare hitches; a display time on most, a planned present
/// on every third, a load on every fifth.
std::vector<FrameRecord> synthetic(std::int64_t n) {
  std::vector<FrameRecord> records;
  Nanos t{0};
  for (std::int64_t i = 0; i < n; ++i) {
    FrameRecord r;
    r.frame = i;
    r.policy = "adaptive";
    r.timing_source = TimingSource::cpu;
    const double u = unit(i, 1);
    t += from_ms(u < 0.99 ? 16.0 + u : 40.0 + 50 * u);
    r.cpu_start = t - 8_ms;
    r.planned_start = r.cpu_start - from_ms(unit(i, 2) / 4);
    r.interval = from_ms(unit(i, 3) < 0.5 ? 16.666667 : 33.333333);
    r.render = from_ms(3 + unit(i, 4));
    r.sim_steps = 1 + i % 2;
    r.update = 1_ms;
    r.pacer_wait = from_ms(10 * unit(i, 5));
    r.present = t;
    if (i % 7 != 0) r.display = t + from_ms(unit(i, 6));
    r.sim_previous = t - 20_ms;
    r.sim_current = t - 5_ms;
    r.alpha = 0.5;
    r.animation_time = t - from_ms(unit(i, 7) / 2);
    r.events = i % 50 == 0 ? event_widen : event_none;
    if (i % 3 == 0) r.present_planned = t - from_ms(unit(i, 8) - 0.5);
    r.present_issued = t + from_ms(unit(i, 9) / 10);
    if (i % 5 == 0) r.load_ms = 3 + unit(i, 10);
    records.push_back(r);
  }
  return records;
}

std::string native_text(const std::vector<FrameRecord>& records) {
  std::ostringstream out;
  NativeLogWriter w{out};
  for (const auto& r : records) w.write(r);
  return out.str();
}

void expect_same(const Summary& a, const Summary& b) {
  EXPECT_EQ(a.frames, b.frames);
  EXPECT_EQ(a.duration_ms, b.duration_ms);
  EXPECT_EQ(a.average_fps, b.average_fps);
  EXPECT_EQ(a.interval_mean_ms, b.interval_mean_ms);
  EXPECT_EQ(a.interval_p50_ms, b.interval_p50_ms);
  EXPECT_EQ(a.interval_p99_ms, b.interval_p99_ms);
  EXPECT_EQ(a.interval_max_ms, b.interval_max_ms);
  EXPECT_EQ(a.anim_error_p50_ms, b.anim_error_p50_ms);
  EXPECT_EQ(a.anim_error_p99_ms, b.anim_error_p99_ms);
  EXPECT_EQ(a.anim_error_max_ms, b.anim_error_max_ms);
  EXPECT_EQ(a.lateness_p50_ms, b.lateness_p50_ms);
  EXPECT_EQ(a.lateness_p99_ms, b.lateness_p99_ms);
  EXPECT_EQ(a.stutters, b.stutters);
  EXPECT_EQ(a.stutter_time_pct, b.stutter_time_pct);
  EXPECT_EQ(a.p1_fps, b.p1_fps);
  EXPECT_EQ(a.p01_fps, b.p01_fps);
  EXPECT_EQ(a.low1_fps, b.low1_fps);
  EXPECT_EQ(a.low01_fps, b.low01_fps);
  EXPECT_EQ(a.busy_share, b.busy_share);
  EXPECT_EQ(a.wait_share, b.wait_share);
  EXPECT_EQ(a.interval_changes, b.interval_changes);
  EXPECT_EQ(a.interval_changes_per_min, b.interval_changes_per_min);
  EXPECT_EQ(a.sim_steps, b.sim_steps);
  EXPECT_EQ(a.dropped_ms, b.dropped_ms);
}

/// The chart thinning pacer-report had before it streamed (all points in memory).
std::vector<std::pair<double, double>> thin_whole(const std::vector<std::pair<double, double>>& pts,
                                                  const std::function<double(double)>& px) {
  if (pts.size() < 4000) return pts;
  struct Column {
    std::size_t lo = 0, hi = 0;
    bool used = false;
  };
  constexpr long columns = 4096;
  std::vector<Column> cols(static_cast<std::size_t>(columns));
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const double x = px(pts[i].first);
    const long b = std::isfinite(x) ? std::clamp(std::lround(std::floor(x)), 0L, columns - 1) : 0L;
    Column& c = cols[static_cast<std::size_t>(b)];
    if (!c.used) {
      c = {i, i, true};
      continue;
    }
    if (pts[i].second < pts[c.lo].second) c.lo = i;
    if (pts[i].second > pts[c.hi].second) c.hi = i;
  }
  std::vector<std::pair<double, double>> out;
  for (const Column& c : cols) {
    if (!c.used) continue;
    out.push_back(pts[std::min(c.lo, c.hi)]);
    if (c.lo != c.hi) out.push_back(pts[std::max(c.lo, c.hi)]);
  }
  return out;
}

}  // namespace

TEST(PacerReport, StreamedSummaryEqualsTheWholeRecordSummary) {
  // 65,536 frames: the most QuantileSketch answers exactly, so the numbers are equal, not near.
  const auto records = synthetic(65'536);
  const std::string text = native_text(records);
  std::istringstream whole_in{text};
  const NativeLog whole = read_native_log(whole_in, "run.csv");  // as pacer-report read logs before
  for (const std::int64_t warmup : {0, 30}) {
    const Summary expected = summarize(whole.records, {.warmup_frames = warmup});
    std::vector<double> hold;
    for (std::size_t i = static_cast<std::size_t>(warmup); i < whole.records.size(); ++i)
      if (const auto& r = whole.records[i]; r.present_planned)
        hold.push_back(std::abs(to_ms(r.present_issued - *r.present_planned)));

    std::istringstream in{text};
    NativeLogReader reader{in, "run.csv"};
    tools::ReportLogBuilder builder{"run.csv", warmup};
    for (FrameRecord r; reader.next(r);) builder.add(r);
    const tools::ReportLog log = builder.result();
    EXPECT_EQ(log.frames, 65'536);
    EXPECT_EQ(log.policy, "adaptive");
    EXPECT_EQ(log.warmup, warmup);
    expect_same(log.summary, expected);
    EXPECT_GT(log.summary.stutters, 0);
    ASSERT_TRUE(log.present_hold_p99_ms);
    EXPECT_EQ(*log.present_hold_p99_ms, percentile(hold, 99));
    EXPECT_EQ(log.interval_times.min, to_ms(shown_time(whole.records[1])) / 1000.0);
    EXPECT_EQ(log.interval_times.max, to_ms(shown_time(whole.records.back())) / 1000.0);
    EXPECT_EQ(log.planned_times.min, to_ms(shown_time(whole.records[0])) / 1000.0);
  }
}

TEST(PacerReport, EmptyAndPlanlessLogs) {
  const tools::ReportLog empty = tools::report_log("empty.csv", {});
  EXPECT_EQ(empty.frames, 0);
  EXPECT_EQ(empty.policy, "");
  EXPECT_FALSE(empty.present_hold_p99_ms);
  EXPECT_GT(empty.interval_times.min, empty.interval_times.max);
  auto records = synthetic(10);
  for (auto& r : records) r.present_planned.reset();
  EXPECT_FALSE(tools::report_log("run.csv", records).present_hold_p99_ms);
}

TEST(ColumnThinner, KeepsEveryPointOfAShortLine) {
  const auto px = [](double x) { return x; };
  tools::ColumnThinner t{px};
  std::vector<std::pair<double, double>> all;
  for (int i = 0; i < 3999; ++i) {
    t.add(i % 10, i);
    all.emplace_back(i % 10, i);
  }
  EXPECT_EQ(t.points(), all);
}

TEST(ColumnThinner, KeepsTheLowestAndHighestPointPerColumn) {
  // 50,000 points over 1000 columns, x going back now and then, y with repeats (ties).
  const auto px = [](double x) { return 62 + x / 50.0 * 914; };
  tools::ColumnThinner t{px};
  std::vector<std::pair<double, double>> all;
  for (std::int64_t i = 0; i < 50'000; ++i) {
    const double x = (i % 997 == 0 ? 0.5 * static_cast<double>(i) : static_cast<double>(i)) / 1000.0;
    const double y = std::floor(100 * unit(i, 11)) / 4;
    t.add(x, y);
    all.emplace_back(x, y);
  }
  EXPECT_EQ(t.count(), 50'000);
  const auto kept = t.points();
  EXPECT_EQ(kept, thin_whole(all, px));
  EXPECT_LE(kept.size(), 2 * 1000u);
  // Every column's extremes are there.
  std::vector<double> lo(4096, 1e300), hi(4096, -1e300), kept_lo(4096, 1e300), kept_hi(4096, -1e300);
  for (const auto& [x, y] : all) {
    const auto c = static_cast<std::size_t>(std::floor(px(x)));
    lo[c] = std::min(lo[c], y), hi[c] = std::max(hi[c], y);
  }
  for (const auto& [x, y] : kept) {
    const auto c = static_cast<std::size_t>(std::floor(px(x)));
    kept_lo[c] = std::min(kept_lo[c], y), kept_hi[c] = std::max(kept_hi[c], y);
  }
  EXPECT_EQ(kept_lo, lo);
  EXPECT_EQ(kept_hi, hi);
}

TEST(PacerReport, TheSecondPassTakesWhatTheFirstSaw) {
  const auto records = synthetic(6000);
  const std::vector<tools::ReportLog> logs{tools::report_log("run.csv", std::span{records}.first(5000))};
  auto html = [&](std::size_t replayed) {
    std::ostringstream out;
    tools::write_html_report(out, logs, 60, [&](std::size_t i, const tools::RecordSink& sink) {
      EXPECT_EQ(i, 0u);
      for (std::size_t k = 0; k < replayed; ++k) sink(records[k]);
    });
    return out.str();
  };
  const std::string exact = html(5000);
  EXPECT_NE(exact.find("<polyline"), std::string::npos);
  EXPECT_NE(exact.find("<td>5000</td>"), std::string::npos);
  EXPECT_EQ(html(6000), exact) << "a log that grew: the frames of the first pass";
  EXPECT_THROW(html(4000), tools::ReplayError) << "a log that shrank";
}

TEST(PacerReport, TheVerdictStarsOnlyWhatApplies) {
  // Three logs: adaptive under 60 fps, flipcode at 120 and accumulator at 75 (their frames
  // over the 60 Hz refresh are never seen; neither plans a start). Under --refresh-hz 60 both
  // rates over 60 share the star (120 took it alone); the classic loops' lateness and
  // interval changes are n/a, not a starred 0.
  auto adaptive = synthetic(600);
  auto fast = synthetic(600), classic = synthetic(600);
  for (auto& r : fast) {
    r.policy = "flipcode";
    r.present = r.present_issued = r.cpu_start = r.planned_start = Nanos{r.frame * 8'333'333};
    r.display = r.present;
    r.present_planned.reset();
  }
  for (auto& r : classic) {
    r.policy = "accumulator";
    r.present = r.present_issued = r.cpu_start = Nanos{r.frame * 13'333'333};  // 75 fps
    r.display = r.present;
    r.planned_start = r.cpu_start;
    r.events = event_none;
    r.present_planned.reset();
  }
  const std::vector<tools::ReportLog> logs{tools::report_log("a.csv", adaptive), tools::report_log("f.csv", fast),
                                           tools::report_log("c.csv", classic)};
  std::ostringstream out;
  tools::write_html_report(out, logs, 60, [&](std::size_t i, const tools::RecordSink& sink) {
    for (const auto& r : i == 0 ? adaptive : i == 1 ? fast : classic) sink(r);
  });
  const std::string html = out.str();
  const auto row = [&](const std::string& metric) {
    const auto at = html.find("<tr><td>" + metric + "</td>");
    EXPECT_NE(at, std::string::npos) << metric;
    return html.substr(at, html.find("</tr>", at) - at);
  };
  const std::string fps = row("average fps");
  EXPECT_NE(fps.find("120.0 &#9733;"), std::string::npos) << fps;
  EXPECT_NE(fps.find("75.0 &#9733;"), std::string::npos) << fps;
  EXPECT_EQ(fps.find("&#9733;", fps.find("&#9733;") + 1), fps.rfind("&#9733;")) << "two stars\n" << fps;
  const std::string lateness = row("lateness p99");
  EXPECT_NE(lateness.find("<td class=\"na\">n/a</td><td class=\"na\">n/a</td>"), std::string::npos) << lateness;
  const std::string changes = row("interval changes / min");
  EXPECT_NE(changes.find("<td class=\"na\">n/a</td><td class=\"na\">n/a</td>"), std::string::npos) << changes;
}
