// html_report.hpp - one self-contained HTML page with inline SVG charts for pacing logs,
// several logs (one per policy) side by side.
//
//   tools::write_html_report(out, {{"run.csv", log.records, summary}}, refresh_hz);
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "pacer/stats.hpp"

namespace tools {

struct ReportLog {
  std::string name;  ///< the log's path
  std::span<const pacer::FrameRecord> records;
  pacer::Summary summary;
  std::int64_t warmup = 0;  ///< frames the summary skipped (the present-hold metric skips them too)
};

/// Column names: each log's policy (its first record's), or its file name where two logs
/// share a policy or a log is empty.
std::vector<std::string> log_labels(std::span<const ReportLog> logs);

/// p99 of |present_issued - present_planned| (ms) over the frames with a planned present
/// (after the warm-up); nullopt when the policy planned none.
std::optional<double> present_hold_error_p99_ms(const ReportLog& log);

/// The page: which log is which (colour, policy, file), a verdict table (a row per key
/// metric, a column per log, the best value per row marked), every metric, then one chart
/// per metric with a line per log: frame interval, planned interval with the load overlaid,
/// |animation error|, present issued - planned (where any log planned presents), and a
/// histogram of frame intervals (in refresh periods when refresh_hz > 0, else 1 ms bins).
/// Bounded output whatever the input: each chart line draws at most a lowest and a highest
/// point per pixel column (about 2,000 points however long the log), and the histogram has at
/// most max_histogram_bins bins, the last one ("63+") holding every longer interval.
inline constexpr std::size_t max_histogram_bins = 64;
void write_html_report(std::ostream& out, std::span<const ReportLog> logs, double refresh_hz);

/// Rows of (label, value per log) shared by the console table and the HTML table.
std::vector<std::pair<std::string, std::vector<std::string>>> metric_rows(std::span<const ReportLog> logs);

}  // namespace tools
