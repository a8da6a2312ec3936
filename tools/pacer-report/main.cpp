// pacer-report: reads native pacing logs, prints their metrics side by side and writes
// a self-contained HTML report with SVG charts.
//
//   pacer-report adaptive.csv flipcode.csv --html report.html --json summary.json --refresh-hz 60
//
// Memory does not grow with the logs' length (docs/reliability.md, "Bounded resources"): each
// log is streamed once for its metrics (pacer::NativeLogReader, pacer::SummaryBuilder) and,
// for --html, once more for the charts, which keep a lowest and a highest point per pixel column.
//
// Exit 0 on success; 2 on a usage error or a malformed/unreadable log (one line naming
// file, line and column; also a log that changed between the two reads, the --html file then
// removed); 1 when an output cannot be written, with its cause. Outputs are checked before any
// log is read or anything printed: an unwritable one fails at once.
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "html_report.hpp"
#include "pacer/exports.hpp"
#include "pacer/log_reader.hpp"
#include "engine/cli.hpp"

namespace {

int usage_error(const std::string& message) { return fpcli::usage_error("pacer-report", message); }

/// "pacer-report: cannot write 'PATH': CAUSE" on stderr (errno read at the failure); returns 1.
int cannot_write(const std::string& path, int error) {
  std::fprintf(stderr, "pacer-report: cannot write '%s': %s\n", fpcli::printable(path).c_str(),
               error != 0 ? std::strerror(error) : "write failed");
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> paths;
  std::string html, json;
  long long warmup = 0;
  double refresh_hz = 0;
  {
    // The flag table (CLI11, engine/cli.hpp): usage errors are one line, exit 2.
    CLI::App app{"Prints the pacing metrics of native logs side by side and writes charts.", "pacer-report"};
    fpcli::setup(app, FP_VERSION);
    app.add_option("logs", paths, "native pacing logs (CSV)")->type_name("LOG...")->check(fpcli::file_name());
    app.add_option("--html", html, "write a self-contained HTML report with SVG charts")->type_name("FILE")->check(fpcli::file_name());
    app.add_option("--json", json, "write the summaries as JSON")->type_name("FILE")->check(fpcli::file_name());
    app.add_option("--warmup", warmup, "skip the first N frames of each log (default 0)")
        ->type_name("N")->transform(fpcli::whole(0, 100'000'000));
    app.add_option("--refresh-hz", refresh_hz, "histogram frame intervals in refresh periods of this display (0: off)")
        ->type_name("HZ")->transform(fpcli::real(0, 1000));
    if (const int code = fpcli::parse(app, argc, argv); code >= 0) return code;
    // An output over an input log (or over the other output) would lose it.
    for (const auto& path : paths) {
      if (fpcli::same_file(html, path)) return usage_error("--html: '" + fpcli::printable(html) + "' is also an input log");
      if (fpcli::same_file(json, path)) return usage_error("--json: '" + fpcli::printable(json) + "' is also an input log");
    }
    if (fpcli::same_file(html, json)) return usage_error("--json: '" + fpcli::printable(json) + "' is also the --html file");
  }
  if (paths.empty()) return usage_error("no log given (see --help)");

  // Each output opened before any log is read, for appending (an existing file keeps its
  // contents until the report replaces it); one this check created is removed again when the
  // run fails before writing it.
  std::vector<std::string> created;
  const auto fail = [&created](int code) {
    std::error_code ignored;
    for (const auto& path : created) std::filesystem::remove(path, ignored);
    return code;
  };
  for (const std::string* output : {&html, &json}) {
    if (output->empty()) continue;
    std::error_code ec;
    const bool existed = std::filesystem::exists(*output, ec);
    errno = 0;
    std::ofstream probe{*output, std::ios::app};
    if (!probe) return fail(cannot_write(*output, errno));
    if (!existed) created.push_back(*output);
  }

  // First pass: each log streamed once for its summary, frame count and time range; the
  // HTML report's charts stream it again (replay below). No log is held in memory.
  std::vector<tools::ReportLog> report;
  for (const auto& path : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
      return fail(usage_error("'" + fpcli::printable(path) + "' is a directory, not a log"));
    // The charts read each log a second time: a pipe would be empty then.
    if (!html.empty() && std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
      return fail(usage_error("'" + fpcli::printable(path) +
                              "' is not a regular file: --html reads each log twice (save it to a file first)"));
    errno = 0;
    std::ifstream in{path};
    if (!in)
      return fail(usage_error("cannot read '" + fpcli::printable(path) + "': " + std::strerror(errno != 0 ? errno : ENOENT)));
    try {
      pacer::NativeLogReader reader{in, path};
      tools::ReportLogBuilder builder{path, warmup};
      for (pacer::FrameRecord r; reader.next(r);) builder.add(r);
      for (const auto& w : reader.warnings()) std::fprintf(stderr, "pacer-report: warning: %s\n", w.c_str());
      report.push_back(builder.result());
      if (warmup > 0 && report.back().frames > 0 && warmup >= report.back().frames)
        std::fprintf(stderr, "pacer-report: warning: %s: the %lld-frame warm-up covers all %lld frames: no metrics\n",
                     path.c_str(), warmup, static_cast<long long>(report.back().frames));
    } catch (const pacer::LogParseError& e) {
      return fail(usage_error(e.what()));
    }
  }

  // The table: a column per log, named by its policy (by its file where two share one).
  const auto rows = tools::metric_rows(report);
  std::printf("%-36s", warmup > 0 ? ("metric (after " + std::to_string(warmup) + " frames)").c_str() : "metric");
  for (const auto& label : tools::log_labels(report)) std::printf(" %22.22s", label.c_str());
  std::printf("\n");
  for (const auto& [label, values] : rows) {
    std::printf("%-36s", label.c_str());
    for (const auto& v : values) std::printf(" %22s", v.c_str());
    std::printf("\n");
  }

  if (!html.empty()) {
    // Second pass: the charts read each log again, a record at a time, as far as the first
    // pass did (rows appended since, or a torn last row completed since, are not read).
    const auto replay = [&](std::size_t i, const tools::RecordSink& sink) {
      std::ifstream in{paths[i]};
      if (!in) throw pacer::LogParseError("cannot read '" + paths[i] + "' again");
      pacer::NativeLogReader reader{in, paths[i]};
      pacer::FrameRecord r;
      for (std::int64_t n = 0; n < report[i].frames && reader.next(r); ++n) sink(r);
    };
    errno = 0;
    std::ofstream out{html};
    try {
      if (out) tools::write_html_report(out, report, refresh_hz, replay);
    } catch (const std::runtime_error& e) {  // the log changed or went away since the first pass
      out.close();
      std::error_code ignored;
      std::filesystem::remove(html, ignored);
      return fail(usage_error(e.what()));
    }
    if (!out || !out.flush()) return cannot_write(html, errno);
    std::printf("wrote %s\n", html.c_str());
  }
  if (!json.empty()) {
    errno = 0;
    std::ofstream out{json};
    if (out) {
      out << "[\n";
      for (std::size_t i = 0; i < report.size(); ++i) {
        pacer::RunInfo info;
        info.application = "pacer-report";
        info.policy = report[i].policy;
        info.config = {{"log", report[i].name}};
        if (i > 0) out << ",\n";
        pacer::write_run_metadata(out, info, &report[i].summary);
      }
      out << "]\n";
    }
    if (!out || !out.flush()) return cannot_write(json, errno);
  }
  return 0;
}
