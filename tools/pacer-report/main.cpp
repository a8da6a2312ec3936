// pacer-report: reads native pacing logs, prints their metrics side by side and writes
// a self-contained HTML report with SVG charts.
//
//   pacer-report adaptive.csv flipcode.csv --html report.html --json summary.json --refresh-hz 60
//
// Exit 0 on success; 2 on a usage error or a malformed/unreadable log (one line naming
// file, line and column); 1 when an output cannot be written.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "html_report.hpp"
#include "pacer/exports.hpp"
#include "pacer/log_reader.hpp"

namespace {

constexpr const char* usage_text = R"(usage: pacer-report LOG... [options]
Prints the pacing metrics of native logs side by side and writes charts.

  --html FILE        write a self-contained HTML report with SVG charts
  --json FILE        write the summaries as JSON
  --warmup N         skip the first N frames of each log (default 0)
  --refresh-hz HZ    histogram frame intervals in refresh periods of this display
  --help, --version
)";

int usage_error(const std::string& message) {
  std::fprintf(stderr, "pacer-report: %s\n", message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> paths;
  std::string html, json;
  long long warmup = 0;
  double refresh_hz = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--help" || a == "-h") {
      std::fputs(usage_text, stdout);
      return 0;
    } else if (a == "--version") {
      std::printf("pacer-report %s\n", FP_VERSION);
      return 0;
    } else if (a == "--html") {
      if (!value(html)) return usage_error("--html needs a value");
    } else if (a == "--json") {
      if (!value(json)) return usage_error("--json needs a value");
    } else if (a == "--warmup" || a == "--refresh-hz") {
      if (!value(v)) return usage_error(a + " needs a value");
      char* end = nullptr;
      const double n = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || n < 0 || n > 1e9) return usage_error(a + ": not a valid number: '" + v + "'");
      if (a == "--warmup") warmup = static_cast<long long>(n);
      else refresh_hz = n;
    } else if (a.rfind("--", 0) == 0) {
      return usage_error("unknown option '" + a + "' (see --help)");
    } else {
      paths.push_back(a);
    }
  }
  if (paths.empty()) return usage_error("no log given (see --help)");

  std::vector<pacer::NativeLog> logs;
  logs.reserve(paths.size());
  for (const auto& path : paths) {
    std::ifstream in{path};
    if (!in) return usage_error("cannot read '" + path + "'");
    try {
      logs.push_back(pacer::read_native_log(in, path));
      for (const auto& w : logs.back().warnings) std::fprintf(stderr, "pacer-report: warning: %s\n", w.c_str());
    } catch (const pacer::LogParseError& e) {
      return usage_error(e.what());
    }
  }
  std::vector<tools::ReportLog> report;
  for (std::size_t i = 0; i < logs.size(); ++i)
    report.push_back({paths[i], logs[i].records, pacer::summarize(logs[i].records, {.warmup_frames = warmup}), warmup});

  // The table: a column per log, named by its policy (by its file where two share one).
  const auto rows = tools::metric_rows(report);
  std::printf("%-36s", "metric");
  for (const auto& label : tools::log_labels(report)) std::printf(" %22.22s", label.c_str());
  std::printf("\n");
  for (const auto& [label, values] : rows) {
    std::printf("%-36s", label.c_str());
    for (const auto& v : values) std::printf(" %22s", v.c_str());
    std::printf("\n");
  }

  if (!html.empty()) {
    std::ofstream out{html};
    if (out) tools::write_html_report(out, report, refresh_hz);
    if (!out || !out.flush()) {
      std::fprintf(stderr, "pacer-report: cannot write '%s'\n", html.c_str());
      return 1;
    }
    std::printf("wrote %s\n", html.c_str());
  }
  if (!json.empty()) {
    std::ofstream out{json};
    if (out) {
      out << "[\n";
      for (std::size_t i = 0; i < report.size(); ++i) {
        pacer::RunInfo info;
        info.application = "pacer-report";
        info.policy = report[i].records.empty() ? "" : std::string{report[i].records.front().policy};
        info.config = {{"log", report[i].name}};
        if (i > 0) out << ",\n";
        pacer::write_run_metadata(out, info, &report[i].summary);
      }
      out << "]\n";
    }
    if (!out || !out.flush()) {
      std::fprintf(stderr, "pacer-report: cannot write '%s'\n", json.c_str());
      return 1;
    }
  }
  return 0;
}
