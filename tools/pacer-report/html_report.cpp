#include "html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <set>
#include <sstream>

#include "pacer/log_writer.hpp"

namespace tools {

namespace {

std::string num(double v, int digits) { return pacer::format_fixed(v, digits); }

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

/// One colour per log, in order (Okabe-Ito: distinct, also for colour-blind readers).
std::string color_of(std::size_t i) {
  static constexpr const char* palette[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                            "#e69f00", "#56b4e9", "#000000", "#f0e442"};
  return palette[i % std::size(palette)];
}

struct Series {
  std::string label, color;
  std::vector<std::pair<double, double>> points;  ///< (x, y)
  bool dashed = false;
  double width = 1.4, opacity = 0.9;
};

/// What the legend shows: a swatch per log, then line styles explained in words.
struct Legend {
  std::vector<std::pair<std::string, std::string>> swatches;  ///< (label, colour)
  std::vector<std::pair<std::string, std::string>> styles;     ///< (what it is, SVG dash array; "" solid)
};

/// Round tick steps (1, 2, 5 x 10^k) giving about `target` ticks over [0, span].
double tick_step(double span, int target) {
  if (span <= 0) return 1;
  const double raw = span / target, mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

int digits_for(double step) { return step >= 1 ? 0 : step >= 0.1 ? 1 : 2; }

/// The line charts' width and margins (px), and where time x (s) falls across them.
constexpr double chart_w = 1000, chart_left = 62, chart_right = 24;

/// The x axis of a line chart over times `r`: from 0 (or below) to the last, 0..1 when none.
std::pair<double, double> x_axis(const TimeRange& r) {
  double x_min = r.min, x_max = r.max;
  if (x_min > x_max) x_min = 0, x_max = 1;
  x_min = std::min(x_min, 0.0);
  if (x_max == x_min) x_max = x_min + 1;
  return {x_min, x_max};
}

double chart_px(double x, const std::pair<double, double>& axis) {
  return chart_left + (x - axis.first) / (axis.second - axis.first) * (chart_w - chart_left - chart_right);
}

/// Writes the legend in rows from (x0, y); returns the last row's baseline.
double legend_svg(std::ostream& out, const Legend& legend, double x0, double y, double x_end) {
  double x = x0;
  auto room = [&](double need) {
    if (x + need > x_end) x = x0, y += 16;
  };
  for (const auto& [label, color] : legend.swatches) {
    const double need = 20 + 6.3 * static_cast<double>(label.size()) + 18;
    room(need);
    out << "<rect x=\"" << num(x, 1) << "\" y=\"" << num(y - 10, 1) << "\" width=\"14\" height=\"10\" fill=\"" << color
        << "\"/><text x=\"" << num(x + 19, 1) << "\" y=\"" << num(y, 1) << "\" class=\"legend\">" << escape(label)
        << "</text>\n";
    x += need;
  }
  for (const auto& [what, dash] : legend.styles) {
    const double need = 34 + 6.3 * static_cast<double>(what.size()) + 18;
    room(need);
    out << "<line x1=\"" << num(x, 1) << "\" x2=\"" << num(x + 28, 1) << "\" y1=\"" << num(y - 4, 1) << "\" y2=\""
        << num(y - 4, 1) << "\" stroke=\"#333\" stroke-width=\"1.6\"" << (dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\"")
        << "/><text x=\"" << num(x + 33, 1) << "\" y=\"" << num(y, 1) << "\" class=\"legend\">" << escape(what)
        << "</text>\n";
    x += need;
  }
  return y;
}

/// Lines sharing a plot area; a chart has one lane, or one per log stacked (same axes).
struct Lane {
  std::string label;  ///< shown above the lane when there are several
  std::string color;
  std::vector<Series> series;
};

/// A line chart: title, legend rows, axes with round ticks, x over `axis` (x_axis: the lines'
/// points are already thinned to its pixel columns), y from 0 to the largest value of all
/// lanes, an optional dotted horizontal reference (e.g. the refresh period) in each lane.
void line_chart(std::ostream& out, const std::string& title, const std::string& x_label, const std::string& y_label,
                const std::pair<double, double>& axis, const std::vector<Lane>& lanes, Legend legend,
                std::optional<std::pair<double, std::string>> reference = {}) {
  constexpr double w = chart_w, left = chart_left, right = chart_right, bottom = 46;
  const bool stacked = lanes.size() > 1;
  const double lane_h = stacked ? 120 : 226, lane_gap = stacked ? 22 : 0;
  const double x_min = axis.first, x_max = axis.second;
  double y_min = 0, y_max = 0;
  for (const auto& lane : lanes)
    for (const auto& s : lane.series)
      for (const auto& [x, y] : s.points) {
        y_min = std::min(y_min, y);
        y_max = std::max(y_max, y);
      }
  if (reference) {
    y_max = std::max(y_max, reference->first);
    legend.styles.emplace_back(reference->second, "2 3");
  }
  const double y_span = y_max - y_min;
  const double y_step = tick_step(y_span <= 0 ? 1 : y_span * 1.05, stacked ? 3 : 5);
  y_max = y_max <= 0 ? (y_min < 0 ? 0 : y_step) : std::ceil(y_max * 1.05 / y_step) * y_step;
  y_min = y_min < 0 ? std::floor(y_min * 1.05 / y_step) * y_step : 0;
  // The legend: rows as needed, then the lanes.
  std::ostringstream legend_out;
  const double legend_end = legend_svg(legend_out, legend, left, 42, w - right);
  const double top = legend_end + 14 + lane_gap;
  const double h = top + static_cast<double>(lanes.size()) * (lane_h + lane_gap) - lane_gap + bottom;
  auto px = [&](double x) { return chart_px(x, axis); };
  out << "<svg class=\"chart\" viewBox=\"0 0 " << w << ' ' << num(h, 0) << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  out << "<text x=\"" << left << "\" y=\"20\" class=\"title\">" << escape(title) << "</text>\n" << legend_out.str();
  for (std::size_t li = 0; li < lanes.size(); ++li) {
    const Lane& lane = lanes[li];
    const double lane_top = top + static_cast<double>(li) * (lane_h + lane_gap), lane_bottom = lane_top + lane_h;
    auto py = [&](double y) { return lane_top + (y_max - y) / (y_max - y_min) * lane_h; };
    if (stacked)
      out << "<text x=\"" << left + 4 << "\" y=\"" << num(lane_top - 6, 1) << "\" class=\"lane\" fill=\"" << lane.color << "\">"
          << escape(lane.label) << "</text>\n";
    for (double y = y_min; y <= y_max + y_step / 2; y += y_step)
      out << "<line x1=\"" << left << "\" x2=\"" << w - right << "\" y1=\"" << num(py(y), 1) << "\" y2=\"" << num(py(y), 1)
          << "\" class=\"" << (std::abs(y) < y_step / 2 ? "axis" : "grid") << "\"/><text x=\"" << left - 6 << "\" y=\""
          << num(py(y) + 4, 1) << "\" class=\"tick\" text-anchor=\"end\">" << num(std::abs(y) < y_step / 2 ? 0 : y, digits_for(y_step))
          << "</text>\n";
    out << "<line x1=\"" << left << "\" x2=\"" << left << "\" y1=\"" << num(lane_top, 1) << "\" y2=\"" << num(lane_bottom, 1)
        << "\" class=\"axis\"/><line x1=\"" << left << "\" x2=\"" << w - right << "\" y1=\"" << num(lane_bottom, 1)
        << "\" y2=\"" << num(lane_bottom, 1) << "\" class=\"axis\"/>\n";
    const double mid = (lane_top + lane_bottom) / 2;
    out << "<text x=\"16\" y=\"" << num(mid, 1) << "\" class=\"label\" text-anchor=\"middle\" transform=\"rotate(-90 16 "
        << num(mid, 1) << ")\">" << escape(y_label) << "</text>\n";
    if (reference)
      out << "<line x1=\"" << left << "\" x2=\"" << w - right << "\" y1=\"" << num(py(reference->first), 1) << "\" y2=\""
          << num(py(reference->first), 1) << "\" stroke=\"#333\" stroke-width=\"1\" stroke-dasharray=\"2 3\"/>\n";
    for (const auto& s : lane.series) {
      if (s.points.empty()) continue;
      out << "<polyline fill=\"none\" stroke=\"" << s.color << "\" stroke-width=\"" << num(s.width, 1) << "\" stroke-opacity=\""
          << num(s.opacity, 2) << "\" stroke-linejoin=\"round\"" << (s.dashed ? " stroke-dasharray=\"5 3\"" : "") << " points=\"";
      for (const auto& [x, y] : s.points) out << num(px(x), 1) << ',' << num(py(y), 1) << ' ';
      out << "\"><title>" << escape(s.label) << "</title></polyline>\n";
    }
  }
  const double x_step = tick_step(x_max - x_min, 10), axis_y = h - bottom;
  for (double x = std::ceil(x_min / x_step) * x_step; x <= x_max + x_step * 1e-6; x += x_step)
    out << "<line x1=\"" << num(px(x), 1) << "\" x2=\"" << num(px(x), 1) << "\" y1=\"" << num(axis_y, 1) << "\" y2=\""
        << num(axis_y + 4, 1) << "\" class=\"axis\"/><text x=\"" << num(px(x), 1) << "\" y=\"" << num(axis_y + 17, 1)
        << "\" class=\"tick\" text-anchor=\"middle\">" << num(x, digits_for(x_step)) << "</text>\n";
  out << "<text x=\"" << (left + w - right) / 2 << "\" y=\"" << num(h - 8, 1) << "\" class=\"label\" text-anchor=\"middle\">"
      << escape(x_label) << "</text>\n</svg>\n";
}

/// Bars of a share of each log's frames per bin, the logs side by side within a bin.
void histogram(std::ostream& out, const std::string& title, const std::string& x_label,
               const std::vector<std::vector<std::int64_t>>& bins_per_log, const std::vector<std::string>& labels,
               const std::function<std::string(std::size_t)>& bin_label) {
  constexpr double w = 1000, left = 62, right = 24, bottom = 46;
  Legend legend;
  for (std::size_t l = 0; l < labels.size(); ++l) legend.swatches.emplace_back(labels[l], color_of(l));
  std::ostringstream legend_out;
  const double top = legend_svg(legend_out, legend, left, 42, w - right) + 14, h = top + 180 + bottom;
  std::size_t n_bins = 0;
  std::vector<double> totals;
  for (const auto& b : bins_per_log) {
    n_bins = std::max(n_bins, b.size());
    double t = 0;
    for (auto v : b) t += static_cast<double>(v);
    totals.push_back(std::max(1.0, t));
  }
  double most = 0;
  for (std::size_t l = 0; l < bins_per_log.size(); ++l)
    for (auto v : bins_per_log[l]) most = std::max(most, 100.0 * static_cast<double>(v) / totals[l]);
  const double y_step = tick_step(most <= 0 ? 1 : most * 1.05, 4);
  const double y_max = most <= 0 ? y_step : std::min(std::max(100.0, most), std::ceil(most * 1.05 / y_step) * y_step);
  auto py = [&](double y) { return top + (1 - y / y_max) * (h - top - bottom); };
  const double group = n_bins == 0 ? 1 : (w - left - right) / static_cast<double>(n_bins);
  const double bar = std::max(1.0, (group - 3) / static_cast<double>(std::max<std::size_t>(1, bins_per_log.size())));
  out << "<svg class=\"chart\" viewBox=\"0 0 " << w << ' ' << num(h, 0) << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  out << "<text x=\"" << left << "\" y=\"20\" class=\"title\">" << escape(title) << "</text>\n" << legend_out.str();
  for (double y = 0; y <= y_max + y_step / 2; y += y_step)
    out << "<line x1=\"" << left << "\" x2=\"" << w - right << "\" y1=\"" << num(py(y), 1) << "\" y2=\"" << num(py(y), 1)
        << "\" class=\"grid\"/><text x=\"" << left - 6 << "\" y=\"" << num(py(y) + 4, 1) << "\" class=\"tick\" text-anchor=\"end\">"
        << num(y, digits_for(y_step)) << "%</text>\n";
  out << "<line x1=\"" << left << "\" x2=\"" << w - right << "\" y1=\"" << h - bottom << "\" y2=\"" << h - bottom
      << "\" class=\"axis\"/>\n";
  const bool one = bins_per_log.size() == 1;
  for (std::size_t l = 0; l < bins_per_log.size(); ++l)
    for (std::size_t i = 0; i < bins_per_log[l].size(); ++i) {
      const std::int64_t count = bins_per_log[l][i];
      if (count == 0) continue;
      const double share = 100.0 * static_cast<double>(count) / totals[l];
      const double bar_h = std::max(2.0, h - bottom - py(share));  // a frame or two still shows
      const double x = left + group * static_cast<double>(i) + 1.5 + bar * static_cast<double>(l);
      out << "<rect x=\"" << num(x, 1) << "\" y=\"" << num(h - bottom - bar_h, 1) << "\" width=\"" << num(std::max(1.0, bar - 1), 1)
          << "\" height=\"" << num(bar_h, 1) << "\" fill=\"" << color_of(l) << "\"><title>"
          << escape(labels[l]) << ", " << escape(bin_label(i)) << ": " << count << " frames (" << num(share, 1) << "%)</title></rect>\n";
      if (one)
        out << "<text x=\"" << num(x + bar / 2, 1) << "\" y=\"" << num(py(share) - 3, 1) << "\" class=\"tick\" text-anchor=\"middle\">"
            << count << "</text>\n";
    }
  const std::size_t label_every = std::max<std::size_t>(1, (n_bins + 19) / 20);
  for (std::size_t i = 0; i < n_bins; i = (i + label_every < n_bins || i + 1 == n_bins) ? i + label_every : n_bins - 1)
    out << "<text x=\"" << num(left + group * (static_cast<double>(i) + 0.5), 1) << "\" y=\"" << h - bottom + 17
        << "\" class=\"tick\" text-anchor=\"middle\">" << escape(bin_label(i)) << "</text>\n";
  out << "<text x=\"" << (left + w - right) / 2 << "\" y=\"" << h - 8 << "\" class=\"label\" text-anchor=\"middle\">"
      << escape(x_label) << "</text>\n</svg>\n";
}

/// A verdict row: the value per log (nullopt: not applicable), how to print it, which way is better.
struct Verdict {
  std::string metric, meaning;
  std::vector<std::optional<double>> values;
  int digits = 2;
  bool higher_is_better = false;
  std::string unit;
  /// Higher is better up to this and no further (average fps under a known refresh: frames
  /// beyond the monitor's rate are never seen); 0: no such bound.
  double best_up_to = 0;
};

/// The classic loops (pacer/baselines.hpp) plan no frame start and make no interval
/// decision: their lateness is 0 and their interval changes are none by construction.
bool classic_loop(const std::string& policy) {
  return policy == "accumulator" || policy == "accumulator-capped" || policy == "flipcode" || policy == "variable";
}

std::vector<Verdict> verdicts(std::span<const ReportLog> logs, double refresh_hz) {
  auto row = [&](std::string metric, std::string meaning, int digits, bool higher, std::string unit,
                 const std::function<std::optional<double>(const ReportLog&)>& f) {
    Verdict v{std::move(metric), std::move(meaning), {}, digits, higher, std::move(unit)};
    for (const auto& l : logs) v.values.push_back(l.summary.frames > 1 ? f(l) : std::nullopt);
    return v;
  };
  Verdict fps = row("average fps",
                    refresh_hz > 0 ? "frames shown per second (higher, up to the " + num(refresh_hz, 0) +
                                         " Hz refresh: the extra frames are never seen, so any rate at or over it is best)"
                                   : "frames shown per second (higher; above the refresh rate the extra frames are never seen)",
                    1, true, "", [](const ReportLog& l) { return l.summary.average_fps; });
  fps.best_up_to = refresh_hz;
  const auto planned = [](double (*metric)(const pacer::Summary&)) {
    return [metric](const ReportLog& l) -> std::optional<double> {
      if (classic_loop(l.policy)) return std::nullopt;
      return metric(l.summary);
    };
  };
  return {
      std::move(fps),
      row("p99 |animation error|", "world time advanced minus display time advanced, 99th percentile (lower)", 2, false,
          " ms", [](const ReportLog& l) { return l.summary.anim_error_p99_ms; }),
      row("stutter", "share of the run in intervals over 2.5 x the running average (lower)", 2, false, "%",
          [](const ReportLog& l) { return l.summary.stutter_time_pct; }),
      row("lateness p99", "how late frames start after their planned start, 99th percentile (lower; n/a: the classic "
          "loops plan no start)", 2, false, " ms",
          planned([](const pacer::Summary& s) { return s.lateness_p99_ms; })),
      row("busy share", "share of the loop's time spent rendering and updating (lower: the thread is free more often); a "
          "blocked swapchain acquire counts, as ms_render holds it: a loop stalled on a full FIFO queue reads busy", 1,
          false, "%", [](const ReportLog& l) { return 100 * l.summary.busy_share; }),
      row("interval changes / min", "interval decisions per minute: frames whose interval_event is widen, shrink or "
          "quantize (lower: steadier; n/a: the classic loops make none, their frame times vary as the costs do)",
          1, false, "", planned([](const pacer::Summary& s) { return s.interval_changes_per_min; })),
      row("p99 |present issued - planned|", "how far the present call missed the time the policy planned for it (lower; "
          "n/a: the policy plans no present; with --render-thread the log's present_issued_ms is the hand-over to the "
          "render thread)", 3, false, " ms", present_hold_error_p99_ms),
  };
}

}  // namespace

std::vector<std::string> log_labels(std::span<const ReportLog> logs) {
  std::vector<std::string> labels;
  std::multiset<std::string> seen;
  for (const auto& l : logs) {
    labels.push_back(l.policy);
    seen.insert(labels.back());
  }
  for (std::size_t i = 0; i < logs.size(); ++i)
    if (labels[i].empty() || seen.count(labels[i]) > 1) labels[i] = std::filesystem::path{logs[i].name}.filename().string();
  return labels;
}

std::optional<double> present_hold_error_p99_ms(const ReportLog& log) { return log.present_hold_p99_ms; }

ReportLogBuilder::ReportLogBuilder(std::string name, std::int64_t warmup) : summary_{{.warmup_frames = warmup}} {
  log_.name = std::move(name);
  log_.warmup = warmup;
}

void ReportLogBuilder::add(const pacer::FrameRecord& r) {
  if (log_.frames == 0) log_.policy = std::string{r.policy};
  const double t = pacer::to_ms(pacer::shown_time(r)) / 1000.0;
  if (log_.frames > 0) log_.interval_times.add(t);
  if (r.present_planned) {
    log_.planned_times.add(t);
    if (log_.frames >= log_.warmup) hold_.add(std::abs(pacer::to_ms(r.present_issued - *r.present_planned)));
  }
  summary_.add(r);
  ++log_.frames;
}

ReportLog ReportLogBuilder::result() const {
  ReportLog log = log_;
  log.summary = summary_.result();
  if (hold_.count() > 0) log.present_hold_p99_ms = hold_.percentile(99);
  return log;
}

ReportLog report_log(std::string name, std::span<const pacer::FrameRecord> records, std::int64_t warmup) {
  ReportLogBuilder b{std::move(name), warmup};
  for (const auto& r : records) b.add(r);
  return b.result();
}

ColumnThinner::ColumnThinner(std::function<double(double)> px) : px_{std::move(px)} {}

void ColumnThinner::add(double x, double y) {
  const std::int64_t seq = count_++;
  if (all_.size() < keep_all) all_.emplace_back(x, y);
  if (cols_.empty()) cols_.resize(static_cast<std::size_t>(columns));
  const double p = px_(x);
  const long b = std::isfinite(p) ? std::clamp(std::lround(std::floor(p)), 0L, columns - 1) : 0L;
  Column& c = cols_[static_cast<std::size_t>(b)];
  const Point point{x, y, seq};
  if (!c.used) {
    c = {point, point, true};
    return;
  }
  if (y < c.lo.y) c.lo = point;
  if (y > c.hi.y) c.hi = point;
}

std::vector<std::pair<double, double>> ColumnThinner::points() const {
  if (count_ < static_cast<std::int64_t>(keep_all)) return all_;
  std::vector<std::pair<double, double>> out;
  for (const Column& c : cols_) {
    if (!c.used) continue;
    const Point& first = c.lo.seq <= c.hi.seq ? c.lo : c.hi;
    const Point& second = c.lo.seq <= c.hi.seq ? c.hi : c.lo;
    out.emplace_back(first.x, first.y);
    if (c.lo.seq != c.hi.seq) out.emplace_back(second.x, second.y);
  }
  return out;
}

std::vector<std::pair<std::string, std::vector<std::string>>> metric_rows(std::span<const ReportLog> logs) {
  std::vector<std::pair<std::string, std::vector<std::string>>> rows;
  auto add = [&](std::string label, const std::function<std::string(const pacer::Summary&)>& f) {
    std::vector<std::string> values;
    for (const auto& l : logs) values.push_back(f(l.summary));
    rows.emplace_back(std::move(label), std::move(values));
  };
  add("frames", [](const auto& s) { return std::to_string(s.frames); });
  add("average fps", [](const auto& s) { return num(s.average_fps, 2); });
  add("frame interval mean (ms)", [](const auto& s) { return num(s.interval_mean_ms, 3); });
  add("frame interval p50 (ms)", [](const auto& s) { return num(s.interval_p50_ms, 3); });
  add("frame interval p99 (ms)", [](const auto& s) { return num(s.interval_p99_ms, 3); });
  add("frame interval max (ms)", [](const auto& s) { return num(s.interval_max_ms, 3); });
  add("|animation error| p50 (ms)", [](const auto& s) { return num(s.anim_error_p50_ms, 3); });
  add("|animation error| p99 (ms)", [](const auto& s) { return num(s.anim_error_p99_ms, 3); });
  add("|animation error| max (ms)", [](const auto& s) { return num(s.anim_error_max_ms, 3); });
  add("lateness p50 (ms)", [](const auto& s) { return num(s.lateness_p50_ms, 3); });
  add("lateness p99 (ms)", [](const auto& s) { return num(s.lateness_p99_ms, 3); });
  add("latency p50 (ms)", [](const auto& s) { return num(s.latency_p50_ms, 3); });
  add("stutters", [](const auto& s) { return std::to_string(s.stutters); });
  add("stutter (% of time)", [](const auto& s) { return num(s.stutter_time_pct, 2); });
  add("P1 / P0.1 fps", [](const auto& s) { return num(s.p1_fps, 1) + " / " + num(s.p01_fps, 1); });
  add("1% / 0.1% low fps", [](const auto& s) { return num(s.low1_fps, 1) + " / " + num(s.low01_fps, 1); });
  add("busy / wait share", [](const auto& s) { return num(100 * s.busy_share, 1) + "% / " + num(100 * s.wait_share, 1) + "%"; });
  add("interval changes / min", [](const auto& s) { return num(s.interval_changes_per_min, 1); });
  add("updates", [](const auto& s) { return std::to_string(s.sim_steps); });
  add("dropped (ms)", [](const auto& s) { return num(s.dropped_ms, 3); });
  std::vector<std::string> hold;
  for (const auto& l : logs) {
    const auto v = present_hold_error_p99_ms(l);
    hold.push_back(v ? num(*v, 3) : "n/a");
  }
  rows.emplace_back("|present issued - planned| p99 (ms)", std::move(hold));
  return rows;
}

void write_html_report(std::ostream& out, std::span<const ReportLog> logs, double refresh_hz, const Replay& replay) {
  const auto labels = log_labels(logs);
  out << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Pacing report</title><style>\n"
         "body{font-family:sans-serif;margin:24px;color:#222;max-width:1060px}"
         "table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}"
         "th:first-child,td:first-child{text-align:left}td{white-space:nowrap}td.best{background:#dff3e4;font-weight:bold}"
         "td.meaning{text-align:left;font-size:12px;color:#555;max-width:330px;white-space:normal}td.na{color:#999}"
         ".swatch{display:inline-block;width:14px;height:10px;margin-right:6px}"
         ".chart{width:100%;height:auto;margin:2px 0 4px}p.what{font-size:13px;color:#444;margin:0 0 22px}"
         ".title{font-size:15px;font-weight:bold}.tick{font-size:11px;fill:#555}.label{font-size:12px;fill:#333}"
         ".legend{font-size:12px;fill:#222}.lane{font-size:12px;font-weight:bold}.grid{stroke:#eee}.axis{stroke:#888}\n</style></head><body>\n<h1>Pacing report</h1>\n";

  // Which log is which.
  out << "<table><tr><th>log</th><th>policy</th><th>file</th><th>frames</th><th>shown for (s)</th></tr>\n";
  for (std::size_t i = 0; i < logs.size(); ++i)
    out << "<tr><td><span class=\"swatch\" style=\"background:" << color_of(i) << "\"></span>" << escape(labels[i])
        << "</td><td>" << escape(logs[i].policy) << "</td><td>"
        << escape(logs[i].name) << "</td><td>" << logs[i].frames << "</td><td>"
        << num(logs[i].summary.duration_ms / 1000, 1) << "</td></tr>\n";
  out << "</table>\n";

  // The verdict: key metrics, the best per row marked.
  out << "<h2>Verdict</h2>\n<p class=\"what\">Key metrics (defined in docs/log-format.md), one column per log; "
         "<b>&#9733;</b> and green mark the best value in each row (ties share it). Shown time = display time where "
         "known, else the present call's return. "
      << (logs.empty() || logs.front().warmup == 0
              ? std::string{"Every frame counts (no warm-up skipped; --warmup N skips the first N)."}
              : "The first " + std::to_string(logs.front().warmup) +
                    " frames of each log are a warm-up: the metrics skip them, the charts below still show them.")
      << "</p>\n<table><tr><th>metric</th>";
  for (const auto& label : labels) out << "<th>" << escape(label) << "</th>";
  out << "<th>meaning</th></tr>\n";
  for (const auto& v : verdicts(logs, refresh_hz)) {
    // Ranked on the value, capped where higher stops mattering (fps at the refresh rate).
    const auto ranked = [&v](double x) { return v.best_up_to > 0 ? std::min(x, v.best_up_to) : x; };
    std::optional<double> best;
    for (const auto& x : v.values)
      if (x && (!best || (v.higher_is_better ? ranked(*x) > *best : ranked(*x) < *best))) best = ranked(*x);
    const int known = static_cast<int>(std::count_if(v.values.begin(), v.values.end(), [](auto& x) { return x.has_value(); }));
    out << "<tr><td>" << escape(v.metric) << "</td>";
    for (const auto& x : v.values) {
      if (!x) {
        out << "<td class=\"na\">n/a</td>";
        continue;
      }
      const bool is_best = known > 1 && num(ranked(*x), v.digits) == num(*best, v.digits);
      out << "<td" << (is_best ? " class=\"best\"" : "") << ">" << num(*x, v.digits) << escape(v.unit)
          << (is_best ? " &#9733;" : "") << "</td>";
    }
    out << "<td class=\"meaning\">" << escape(v.meaning) << "</td></tr>\n";
  }
  out << "</table>\n";

  out << "<h2>All metrics</h2>\n<table><tr><th>metric</th>";
  for (const auto& label : labels) out << "<th>" << escape(label) << "</th>";
  out << "</tr>\n";
  for (const auto& [label, values] : metric_rows(logs)) {
    out << "<tr><td>" << escape(label) << "</td>";
    for (const auto& v : values) out << "<td>" << escape(v) << "</td>";
    out << "</tr>\n";
  }
  out << "</table>\n<h2>Over time</h2>\n";

  // One chart per metric, a line per log. The second pass: each log's records again, one at
  // a time, every line thinned to its chart's pixel columns as they come, so nothing here
  // grows with the frames. The x axes come from the first pass's time ranges.
  TimeRange interval_times, planned_times;
  for (const auto& l : logs) {
    interval_times.add(l.interval_times);
    planned_times.add(l.planned_times);
  }
  const auto interval_axis = x_axis(interval_times), planned_axis = x_axis(planned_times);
  const auto on = [](const std::pair<double, double>& axis) { return [axis](double x) { return chart_px(x, axis); }; };
  const pacer::Nanos refresh_period = refresh_hz > 0 ? pacer::from_ms(1000.0 / refresh_hz) : pacer::Nanos::zero();
  // Bounded however long the logs or odd the refresh rate: at most max_bins bins, the last
  // one ("N+") holding every longer interval.
  std::vector<std::vector<std::int64_t>> bins_per_log;
  std::vector<Series> shown, error, hold;
  std::vector<Lane> planned_lanes;
  Legend policies, hold_legend;
  bool any_load = false;
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const std::string c = color_of(i);
    policies.swatches.emplace_back(labels[i], c);
    Series s{labels[i] + ": frame interval", c, {}}, p{labels[i] + ": planned interval", c, {}},
        e{labels[i] + ": |animation error|", c, {}}, h{labels[i] + ": present issued - planned", c, {}};
    Series load{labels[i] + ": load_ms", "#333333", {}, true, 1.2, 0.9};
    p.width = 1.8;
    // Lines of several logs share a chart: each drawn narrower than the one before, so one
    // that coincides with an earlier one (two policies with the same intervals) leaves the
    // earlier one's colour showing at its edges instead of hiding it.
    const double under = logs.size() > 1 ? 1.6 * static_cast<double>(logs.size() - 1 - i) / static_cast<double>(logs.size() - 1) : 0.0;
    s.width += under;
    e.width += under;
    h.width += under;
    ColumnThinner s_pts{on(interval_axis)}, p_pts{on(interval_axis)}, load_pts{on(interval_axis)},
        e_pts{on(interval_axis)}, h_pts{on(planned_axis)};
    pacer::RefreshHistogram refresh{refresh_period, max_histogram_bins};
    std::vector<std::int64_t> ms_bins;
    std::int64_t seen = 0;
    pacer::FrameRecord prev;
    if (logs[i].frames > 0)
      replay(i, [&](const pacer::FrameRecord& r) {
        if (seen >= logs[i].frames) return;  // a log that grew since the first pass: as it was then
        const double t = pacer::to_ms(pacer::shown_time(r)) / 1000.0;
        if (r.present_planned) h_pts.add(t, pacer::to_ms(r.present_issued - *r.present_planned));
        if (seen++ > 0) {
          const pacer::Nanos interval = pacer::shown_time(r) - pacer::shown_time(prev);
          const double ms = pacer::to_ms(interval);
          s_pts.add(t, ms);
          p_pts.add(t, pacer::to_ms(r.interval));
          if (r.load_ms) load_pts.add(t, *r.load_ms);
          e_pts.add(t, std::abs(pacer::to_ms(pacer::animation_error(prev, r))));
          if (refresh_hz > 0) {
            refresh.add(interval);
          } else {
            const auto k = static_cast<std::size_t>(std::clamp(std::floor(ms), 0.0, static_cast<double>(max_histogram_bins - 1)));
            if (ms_bins.size() <= k) ms_bins.resize(k + 1, 0);
            ++ms_bins[k];
          }
        }
        prev = r;
      });
    if (seen < logs[i].frames)
      throw ReplayError(logs[i].name + ": " + std::to_string(logs[i].frames) + " frames when first read, " +
                        std::to_string(seen) + " when read again (the log changed)");
    if (refresh_hz > 0) {
      bins_per_log.push_back(refresh.bins());
      if (bins_per_log.back().size() < 5) bins_per_log.back().resize(5, 0);  // 0-4 periods at least, for scale
    } else {
      bins_per_log.push_back(std::move(ms_bins));
    }
    s.points = s_pts.points();
    p.points = p_pts.points();
    load.points = load_pts.points();
    e.points = e_pts.points();
    h.points = h_pts.points();
    any_load = any_load || !load.points.empty();
    shown.push_back(std::move(s));
    planned_lanes.push_back({labels[i], c, {std::move(p)}});
    if (!load.points.empty()) planned_lanes.back().series.push_back(std::move(load));
    error.push_back(std::move(e));
    if (!h.points.empty()) {
      hold_legend.swatches.emplace_back(labels[i], c);
      hold.push_back(std::move(h));
    }
  }
  std::optional<std::pair<double, std::string>> period;
  if (refresh_hz > 0) period = std::pair{1000.0 / refresh_hz, "refresh period (" + num(refresh_hz, 0) + " Hz)"};
  const bool several = logs.size() > 1;
  const std::string many = several ? "One line per log, in its colour, each narrower than the one before: where two "
                                     "coincide, the earlier one's colour shows at the edges. "
                                   : "";

  line_chart(out, "Frame interval", "run time (s)", "ms", interval_axis, {{"", "", shown}}, policies, period);
  out << "<p class=\"what\">" << many
      << "The frame interval: time from the previous frame being shown to this one (display time where known, else the "
         "present call's return). Flat is smooth; "
      << (refresh_hz > 0 ? "on a fixed-refresh display whole refresh periods (dotted line) are what the eye gets; " : "")
      << "spikes are hitches.</p>\n";

  Legend planned_legend;
  planned_legend.styles.emplace_back(several ? "planned interval (interval_ms), in the log's colour" : "planned interval (interval_ms)", "");
  if (any_load) planned_legend.styles.emplace_back("load (load_ms)", "5 3");
  line_chart(out, any_load ? "Planned interval and load" : "Planned interval", "run time (s)", "ms", interval_axis, planned_lanes,
             planned_legend, period);
  out << "<p class=\"what\">" << (several ? "One lane per log, on the same scales. " : "")
      << "Solid: the planned interval (<code>interval_ms</code>), the render interval the policy is using for that "
         "frame (the uncapped loops plan none: for them it is the measured frame time)."
      << (any_load ? " Dashed: the load (<code>load_ms</code>), the render cost the workload asked of that frame, so "
                     "each change of the interval can be read against the change of load that caused it."
                   : "")
      << "</p>\n";

  line_chart(out, "|Animation error|", "run time (s)", "ms", interval_axis, {{"", "", error}}, policies);
  out << "<p class=\"what\">" << many
      << "|Animation error| per frame: the world time the frame shows advanced minus the time it was shown advanced, "
         "since the previous frame. 0 means motion on screen keeps pace with the clock; large values are visible "
         "judder.</p>\n";

  if (!hold.empty()) {
    line_chart(out, "Present issued - present planned", "run time (s)", "ms", planned_axis, {{"", "", hold}}, hold_legend);
    out << "<p class=\"what\">For the frames whose policy planned a present time (<code>present_planned_ms</code>): "
           "when the present call was made (<code>present_issued_ms</code>) minus when it was planned. Above 0: late; "
           "logs whose policy planned no present have no line.</p>\n";
  }

  bool capped = false;
  for (const auto& b : bins_per_log) capped = capped || (b.size() == max_histogram_bins && b.back() > 0);
  const auto bin_label = [&](std::size_t i) {
    return std::to_string(i) + (capped && i + 1 == max_histogram_bins ? "+" : "");
  };
  if (refresh_hz > 0)
    histogram(out, "Frame intervals in refresh periods (" + num(refresh_hz, 2) + " Hz)", "refresh periods", bins_per_log,
              labels, bin_label);
  else
    histogram(out, "Frame intervals (1 ms bins)", "frame interval (ms)", bins_per_log, labels, bin_label);
  out << "<p class=\"what\">" << (logs.size() > 1 ? "One bar per log, in its colour. " : "") << "Share of each log's frame intervals per "
      << (refresh_hz > 0 ? "whole number of refresh periods (bin 0: under half a period)" : "1 ms bin")
      << ", so logs with different frame counts compare. At most " << max_histogram_bins << " bins: the last, "
      << max_histogram_bins - 1 << "+, holds every interval of " << max_histogram_bins - 1
      << (refresh_hz > 0 ? " refresh periods" : " ms") << " or more" << (capped ? " (used here)" : " (empty here)")
      << ".</p>\n";
  out << "</body></html>\n";
}

}  // namespace tools
