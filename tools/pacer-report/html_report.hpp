// html_report.hpp - one self-contained HTML page with inline SVG charts for pacing logs,
// several logs (one per policy) side by side, in memory that does not grow with the logs.
//
// Two passes over each log. The first gives a ReportLog (summary, frame count, time range)
// one record at a time; the second, at write time, replays the records so each chart line
// keeps only a lowest and a highest point per pixel column (ColumnThinner):
//
//   tools::ReportLogBuilder b{"run.csv", warmup};
//   for (pacer::FrameRecord r; reader.next(r);) b.add(r);
//   const std::vector<tools::ReportLog> logs{b.result()};
//   tools::write_html_report(out, logs, refresh_hz, [&](std::size_t i, const tools::RecordSink& sink) {
//     /* re-read log i, sink(record) for each */
//   });
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "pacer/stats.hpp"

namespace tools {

/// Smallest and largest of some times (s); empty when min > max.
struct TimeRange {
  double min = 1e300, max = -1e300;
  void add(double t) {
    if (t < min) min = t;
    if (t > max) max = t;
  }
  void add(const TimeRange& other) {
    if (other.min > other.max) return;
    add(other.min);
    add(other.max);
  }
};

/// What the first pass keeps of a log: no records.
struct ReportLog {
  std::string name;    ///< the log's path
  std::string policy;  ///< the first record's policy ("" for an empty log)
  std::int64_t frames = 0;  ///< records in the log, the warm-up included
  pacer::Summary summary;
  std::int64_t warmup = 0;  ///< frames the summary skipped (the present-hold metric skips them too)
  /// p99 of |present_issued - present_planned| (ms) over the frames after the warm-up with a
  /// planned present (pacer::QuantileSketch: exact up to its exact_limit); nullopt when none.
  std::optional<double> present_hold_p99_ms;
  TimeRange interval_times;  ///< shown time (s) of every record but the first: the x of the interval charts
  TimeRange planned_times;   ///< shown time (s) of the records with a planned present
};

/// The first pass: a ReportLog from the records one at a time, in bounded memory
/// (pacer::SummaryBuilder, pacer::QuantileSketch).
class ReportLogBuilder {
 public:
  ReportLogBuilder(std::string name, std::int64_t warmup);
  void add(const pacer::FrameRecord& r);
  ReportLog result() const;

 private:
  ReportLog log_;
  pacer::SummaryBuilder summary_;
  pacer::QuantileSketch hold_;
};

/// ReportLogBuilder over `records`.
ReportLog report_log(std::string name, std::span<const pacer::FrameRecord> records, std::int64_t warmup = 0);

/// The second pass: replay(i, sink) calls sink with each record of log i, in order, the
/// same ones the first pass saw (pacer-report re-opens the file). write_html_report stops
/// taking records after ReportLog::frames of them.
using RecordSink = std::function<void(const pacer::FrameRecord&)>;
using Replay = std::function<void(std::size_t log, const RecordSink& sink)>;

/// A replay that gave fewer records than the first pass (the log changed between them).
class ReplayError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A chart line thinned as it streams by: below keep_all points it keeps them all; from
/// then on, per horizontal pixel column (px(x), floored, clamped to [0, columns)), the lowest
/// and the highest point, the first of equals, in the order they came. points() gives them
/// column by column. Memory: keep_all points and `columns` columns, however many are added.
class ColumnThinner {
 public:
  static constexpr std::size_t keep_all = 4000;
  static constexpr long columns = 4096;  ///< beyond the chart's 1000 px
  explicit ColumnThinner(std::function<double(double)> px);
  void add(double x, double y);
  std::int64_t count() const { return count_; }
  std::vector<std::pair<double, double>> points() const;

 private:
  struct Point {
    double x = 0, y = 0;
    std::int64_t seq = 0;
  };
  struct Column {
    Point lo, hi;
    bool used = false;
  };
  std::function<double(double)> px_;
  std::vector<std::pair<double, double>> all_;  ///< the first keep_all points
  std::vector<Column> cols_;
  std::int64_t count_ = 0;
};

/// Column names: each log's policy (its first record's), or its file name where two logs
/// share a policy or a log is empty.
std::vector<std::string> log_labels(std::span<const ReportLog> logs);

/// ReportLog::present_hold_p99_ms.
std::optional<double> present_hold_error_p99_ms(const ReportLog& log);

/// The page: which log is which (colour, policy, file), a verdict table (a row per key
/// metric, a column per log, the best value per row marked), every metric, then one chart
/// per metric with a line per log: frame interval, planned interval with the load overlaid,
/// |animation error|, present issued - planned (where any log planned presents), and a
/// histogram of frame intervals (in refresh periods when refresh_hz > 0, else 1 ms bins).
/// Bounded output whatever the input: each chart line draws at most a lowest and a highest
/// point per pixel column (about 2,000 points however long the log), and the histogram has at
/// most max_histogram_bins bins, the last one ("63+") holding every longer interval. Bounded
/// memory too: the records come from `replay`, one log at a time, and none is kept.
/// Exceptions from `replay` (a log that cannot be read again) pass through.
inline constexpr std::size_t max_histogram_bins = 64;
void write_html_report(std::ostream& out, std::span<const ReportLog> logs, double refresh_hz, const Replay& replay);

/// Rows of (label, value per log) shared by the console table and the HTML table.
std::vector<std::pair<std::string, std::vector<std::string>>> metric_rows(std::span<const ReportLog> logs);

}  // namespace tools
