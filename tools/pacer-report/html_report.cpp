#include "html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

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

struct Series {
  std::string label, color;
  std::vector<std::pair<double, double>> points;  ///< (x, y)
};

/// A line chart with axes, ticks and a legend; y from 0 to the largest value (or y_max).
void line_chart(std::ostream& out, const std::string& title, const std::string& x_label, const std::string& y_label,
                const std::vector<Series>& series) {
  constexpr double w = 1000, h = 280, left = 60, right = 20, top = 30, bottom = 45;
  double x_min = 1e300, x_max = -1e300, y_max = 0;
  for (const auto& s : series)
    for (const auto& [x, y] : s.points) {
      x_min = std::min(x_min, x);
      x_max = std::max(x_max, x);
      y_max = std::max(y_max, y);
    }
  if (x_min > x_max) x_min = 0, x_max = 1;
  if (x_max == x_min) x_max = x_min + 1;
  y_max = y_max <= 0 ? 1 : y_max * 1.08;
  auto px = [&](double x) { return left + (x - x_min) / (x_max - x_min) * (w - left - right); };
  auto py = [&](double y) { return top + (1 - y / y_max) * (h - top - bottom); };
  out << "<svg class=\"chart\" viewBox=\"0 0 " << w << ' ' << h << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  out << "<text x=\"" << left << "\" y=\"18\" class=\"title\">" << escape(title) << "</text>\n";
  for (int i = 0; i <= 4; ++i) {
    const double y = y_max * i / 4;
    out << "<line x1=\"" << left << "\" x2=\"" << w - right << "\" y1=\"" << num(py(y), 1) << "\" y2=\"" << num(py(y), 1)
        << "\" class=\"grid\"/><text x=\"" << left - 6 << "\" y=\"" << num(py(y) + 4, 1) << "\" class=\"tick\" text-anchor=\"end\">"
        << num(y, y_max < 5 ? 2 : 1) << "</text>\n";
    const double x = x_min + (x_max - x_min) * i / 4;
    out << "<text x=\"" << num(px(x), 1) << "\" y=\"" << h - bottom + 16 << "\" class=\"tick\" text-anchor=\"middle\">"
        << num(x, 1) << "</text>\n";
  }
  out << "<line x1=\"" << left << "\" x2=\"" << left << "\" y1=\"" << top << "\" y2=\"" << h - bottom << "\" class=\"axis\"/>"
      << "<line x1=\"" << left << "\" x2=\"" << w - right << "\" y1=\"" << h - bottom << "\" y2=\"" << h - bottom
      << "\" class=\"axis\"/>\n";
  out << "<text x=\"" << (left + w - right) / 2 << "\" y=\"" << h - 8 << "\" class=\"label\" text-anchor=\"middle\">"
      << escape(x_label) << "</text>\n";
  out << "<text x=\"14\" y=\"" << (top + h - bottom) / 2 << "\" class=\"label\" text-anchor=\"middle\" transform=\"rotate(-90 14 "
      << (top + h - bottom) / 2 << ")\">" << escape(y_label) << "</text>\n";
  double legend_x = w - right;
  for (auto it = series.rbegin(); it != series.rend(); ++it) {
    legend_x -= 14.0 + 7.0 * static_cast<double>(it->label.size()) + 16;
    out << "<rect x=\"" << num(legend_x, 1) << "\" y=\"8\" width=\"12\" height=\"12\" fill=\"" << it->color
        << "\"/><text x=\"" << num(legend_x + 16, 1) << "\" y=\"18\" class=\"tick\">" << escape(it->label) << "</text>\n";
  }
  for (const auto& s : series) {
    if (s.points.empty()) continue;
    out << "<polyline fill=\"none\" stroke=\"" << s.color << "\" stroke-width=\"1.2\" points=\"";
    for (const auto& [x, y] : s.points) out << num(px(x), 1) << ',' << num(py(y), 1) << ' ';
    out << "\"/>\n";
  }
  out << "</svg>\n";
}

void histogram(std::ostream& out, const std::string& title, const std::string& x_label, const std::vector<std::int64_t>& bins,
               const std::function<std::string(std::size_t)>& bin_label) {
  constexpr double w = 1000, h = 240, left = 60, right = 20, top = 30, bottom = 45;
  const std::int64_t most = bins.empty() ? 1 : std::max<std::int64_t>(1, *std::max_element(bins.begin(), bins.end()));
  const double bar = bins.empty() ? 1 : (w - left - right) / static_cast<double>(bins.size());
  out << "<svg class=\"chart\" viewBox=\"0 0 " << w << ' ' << h << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  out << "<text x=\"" << left << "\" y=\"18\" class=\"title\">" << escape(title) << "</text>\n";
  out << "<line x1=\"" << left << "\" x2=\"" << w - right << "\" y1=\"" << h - bottom << "\" y2=\"" << h - bottom
      << "\" class=\"axis\"/>\n";
  const std::size_t label_every = std::max<std::size_t>(1, bins.size() / 20);
  for (std::size_t i = 0; i < bins.size(); ++i) {
    const double bh = static_cast<double>(bins[i]) / static_cast<double>(most) * (h - top - bottom);
    const double x = left + bar * static_cast<double>(i);
    out << "<rect x=\"" << num(x + 1, 1) << "\" y=\"" << num(h - bottom - bh, 1) << "\" width=\"" << num(std::max(1.0, bar - 2), 1)
        << "\" height=\"" << num(bh, 1) << "\" fill=\"#3b7dd8\"><title>" << escape(bin_label(i)) << ": " << bins[i]
        << "</title></rect>\n";
    if (bins[i] > 0)
      out << "<text x=\"" << num(x + bar / 2, 1) << "\" y=\"" << num(h - bottom - bh - 3, 1)
          << "\" class=\"tick\" text-anchor=\"middle\">" << bins[i] << "</text>\n";
    if (i % label_every == 0)
      out << "<text x=\"" << num(x + bar / 2, 1) << "\" y=\"" << h - bottom + 16 << "\" class=\"tick\" text-anchor=\"middle\">"
          << escape(bin_label(i)) << "</text>\n";
  }
  out << "<text x=\"" << (left + w - right) / 2 << "\" y=\"" << h - 8 << "\" class=\"label\" text-anchor=\"middle\">"
      << escape(x_label) << "</text>\n</svg>\n";
}

}  // namespace

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
  add("stutters", [](const auto& s) { return std::to_string(s.stutters); });
  add("stutter (% of time)", [](const auto& s) { return num(s.stutter_time_pct, 2); });
  add("P1 / P0.1 fps", [](const auto& s) { return num(s.p1_fps, 1) + " / " + num(s.p01_fps, 1); });
  add("1% / 0.1% low fps", [](const auto& s) { return num(s.low1_fps, 1) + " / " + num(s.low01_fps, 1); });
  add("busy / wait share", [](const auto& s) { return num(100 * s.busy_share, 1) + "% / " + num(100 * s.wait_share, 1) + "%"; });
  add("interval changes / min", [](const auto& s) { return num(s.interval_changes_per_min, 1); });
  add("updates", [](const auto& s) { return std::to_string(s.sim_steps); });
  add("dropped (ms)", [](const auto& s) { return num(s.dropped_ms, 3); });
  return rows;
}

void write_html_report(std::ostream& out, std::span<const ReportLog> logs, double refresh_hz) {
  out << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Pacing report</title><style>\n"
         "body{font-family:sans-serif;margin:24px;color:#222;max-width:1060px}"
         "table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}"
         "th:first-child,td:first-child{text-align:left}.chart{width:100%;height:auto;margin:6px 0 18px}"
         ".title{font-size:14px;font-weight:bold}.tick{font-size:11px;fill:#555}.label{font-size:12px;fill:#333}"
         ".grid{stroke:#eee}.axis{stroke:#888}\n</style></head><body>\n<h1>Pacing report</h1>\n";
  out << "<p>Metrics as docs/pacing.md and design.md section 4 define them; shown time = display time where known, else "
         "present time.</p>\n<table><tr><th>metric</th>";
  for (const auto& l : logs) out << "<th>" << escape(l.name) << "</th>";
  out << "</tr>\n";
  for (const auto& [label, values] : metric_rows(logs)) {
    out << "<tr><td>" << escape(label) << "</td>";
    for (const auto& v : values) out << "<td>" << escape(v) << "</td>";
    out << "</tr>\n";
  }
  out << "</table>\n";
  for (const auto& l : logs) {
    out << "<h2>" << escape(l.name) << "</h2>\n";
    Series shown{"frame interval", "#3b7dd8", {}}, planned{"planned interval", "#e07b00", {}}, error{"animation error", "#c0392b", {}};
    Series load{"load (render cost)", "#2e9e4f", {}};
    const auto& r = l.records;
    for (std::size_t i = 1; i < r.size(); ++i) {
      const double t = pacer::to_ms(pacer::shown_time(r[i])) / 1000.0;
      const pacer::Nanos d = pacer::shown_time(r[i]) - pacer::shown_time(r[i - 1]);
      shown.points.emplace_back(t, pacer::to_ms(d));
      planned.points.emplace_back(t, pacer::to_ms(r[i].interval));
      if (r[i].load_ms) load.points.emplace_back(t, *r[i].load_ms);
      error.points.emplace_back(t, std::abs(pacer::to_ms(pacer::animation_error(r[i - 1], r[i]))));
    }
    std::vector<Series> intervals{shown, planned};
    if (!load.points.empty()) intervals.push_back(load);
    line_chart(out, "Frame interval, planned interval and load", "run time (s)", "ms", intervals);
    line_chart(out, "|Animation error| (world time advanced minus display time advanced)", "run time (s)", "ms", {error});
    if (refresh_hz > 0) {
      const auto period = pacer::from_ms(1000.0 / refresh_hz);
      const auto bins = pacer::refresh_histogram(r, period);
      histogram(out, "Frame intervals in refresh periods (" + num(refresh_hz, 2) + " Hz)", "refresh periods", bins,
                [](std::size_t i) { return std::to_string(i); });
    } else {
      std::vector<std::int64_t> bins;
      for (const auto& [t, ms] : shown.points) {
        const auto k = static_cast<std::size_t>(std::max(0.0, std::floor(ms)));
        if (k >= 200) continue;
        if (bins.size() <= k) bins.resize(k + 1, 0);
        ++bins[k];
      }
      histogram(out, "Frame intervals (1 ms bins)", "frame interval (ms)", bins,
                [](std::size_t i) { return std::to_string(i); });
    }
  }
  out << "</body></html>\n";
}

}  // namespace tools
