// html_report.hpp - one self-contained HTML page with inline SVG charts for pacing logs.
//
//   tools::write_html_report(out, {{"run.csv", log.records, summary}}, refresh_hz);
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "pacer/stats.hpp"

namespace tools {

struct ReportLog {
  std::string name;
  std::span<const pacer::FrameRecord> records;
  pacer::Summary summary;
};

/// The metrics table (a column per log), then per log: frame interval and planned interval
/// over time, animation error over time, and a histogram of frame intervals (in refresh
/// periods when refresh_hz > 0, else 1 ms bins).
void write_html_report(std::ostream& out, std::span<const ReportLog> logs, double refresh_hz);

/// Rows of (label, value per log) shared by the console table and the HTML table.
std::vector<std::pair<std::string, std::vector<std::string>>> metric_rows(std::span<const ReportLog> logs);

}  // namespace tools
