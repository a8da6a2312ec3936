// real_loop_report: the table of bench/real_loop.sh. Reads native pacing logs (the samples'
// --log) and Godot tick CSVs (bench/godot) and prints one Markdown row per input.
//
//   real_loop_report adaptive.csv flipcode.csv godot3-target_fps60=godot.csv --refresh-hz 60
//
// An input is PATH or LABEL=PATH. A file whose header starts "frame,tick_us" is a Godot tick
// CSV (frame,tick_us[,post_draw_us] in microseconds); anything else is read as a native log
// (pacer::read_native_log). The row's label is LABEL, else the log's policy, else the file name.
//
// Over the frames after the warm-up (default 60), with T = 1000 / refresh-hz ms:
//   fps                   (frames - 1) / (last frame start - first frame start)
//   p99 present plan err  p99 |present_issued_ms - present_planned_ms|, frames with a plan only
//   p99 start lateness    p99 |cpu_start_ms - planned_start_ms|
//   p99 present cadence   p99 |present_issued(i) - present_issued(i-1) - T|
//   p99 start cadence     p99 |cpu_start(i) - cpu_start(i-1) - T| (Godot: tick intervals)
//   busy %, wait %        (ms_render + ms_update) / run time, ms_pacer_wait / run time, where
//                         the run time is first to last frame start and the sums are over the
//                         frames before the last (so busy + wait <= 100)
//   spin %                the part of wait % the waiter spent spinning: wait % x spin / waited,
//                         from the sidecar's "measured" waiter numbers (LOG.meta.json) where
//                         there is one
// NA where an input does not measure it. Where present_issued_ms is 0 on every row (a build
// that writes the column without filling it) the present cadence is of present_ms instead
// (marked); for Godot it is of the frame_post_draw tick, just after the buffer swap (marked).
//
// Exit 0 on success; 2 on a usage error or an unreadable or malformed input (one line
// naming file, line and column).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "pacer/exports.hpp"  // run_metadata_path, run_metadata_value
#include "pacer/log_reader.hpp"
#include "pacer/log_writer.hpp"
#include "pacer/stats.hpp"  // percentile
#include "engine/cli.hpp"

namespace {

int usage_error(const std::string& message) { return fpcli::usage_error("real_loop_report", message); }

/// A malformed tick CSV; what() is one line naming file, line and column.
struct TickParseError {
  std::string what;
};

/// Where a row's present cadence comes from.
enum class PresentSource { issued, present_return, godot_post_draw, none };

struct Row {
  std::string label;
  std::size_t frames = 0;  ///< after the warm-up
  std::optional<double> fps, plan_err, lateness, present_cadence, start_cadence, busy, wait, spin;
  PresentSource present_source = PresentSource::none;
};

double p99_abs(const std::vector<double>& values) {
  std::vector<double> a;
  a.reserve(values.size());
  for (const double v : values) a.push_back(std::abs(v));
  return pacer::percentile(std::move(a), 99);
}

/// p99 |t(i) - t(i-1) - period| over consecutive times (ms); nullopt with fewer than two.
std::optional<double> cadence_error(const std::vector<double>& times, double period_ms) {
  if (times.size() < 2) return std::nullopt;
  std::vector<double> e;
  for (std::size_t i = 1; i < times.size(); ++i) e.push_back(times[i] - times[i - 1] - period_ms);
  return p99_abs(e);
}

std::optional<double> fps_of(const std::vector<double>& starts) {
  if (starts.size() < 2 || starts.back() <= starts.front()) return std::nullopt;
  return static_cast<double>(starts.size() - 1) * 1000.0 / (starts.back() - starts.front());
}

Row native_row(const pacer::NativeLog& log, std::size_t warmup, double period_ms) {
  Row row;
  for (const auto& name : log.policy_names) row.label += (row.label.empty() ? "" : "+") + name;
  const auto& all = log.records;
  const std::size_t skip = std::min(warmup, all.size());
  const bool issued_recorded =
      all.size() < 2 || std::any_of(all.begin(), all.end(), [](const pacer::FrameRecord& r) {
        return r.present_issued != pacer::Nanos::zero();
      });
  std::vector<double> starts, presents, plan_err, lateness;
  for (std::size_t i = skip; i < all.size(); ++i) {
    const pacer::FrameRecord& r = all[i];
    starts.push_back(pacer::to_ms(r.cpu_start));
    presents.push_back(pacer::to_ms(issued_recorded ? r.present_issued : r.present));
    if (r.present_planned) plan_err.push_back(pacer::to_ms(r.present_issued - *r.present_planned));
    lateness.push_back(pacer::to_ms(r.cpu_start - r.planned_start));
  }
  row.frames = starts.size();
  row.fps = fps_of(starts);
  if (!plan_err.empty() && issued_recorded) row.plan_err = p99_abs(plan_err);
  if (!lateness.empty()) row.lateness = p99_abs(lateness);
  row.present_cadence = cadence_error(presents, period_ms);
  row.present_source = issued_recorded ? PresentSource::issued : PresentSource::present_return;
  row.start_cadence = cadence_error(starts, period_ms);
  // Each frame's render, updates and wait lie between its start and the next frame's start.
  if (row.frames >= 2) {
    double busy_ms = 0, wait_ms = 0;
    for (std::size_t i = skip; i + 1 < all.size(); ++i) {
      busy_ms += pacer::to_ms(all[i].render + all[i].update);
      wait_ms += pacer::to_ms(all[i].pacer_wait);
    }
    const double run_ms = starts.back() - starts.front();
    if (run_ms > 0) {
      row.busy = 100.0 * busy_ms / run_ms;
      row.wait = 100.0 * wait_ms / run_ms;
    }
  }
  return row;
}

/// A number of the sidecar's "measured" object ("NAME": VALUE), if the file has it.
std::optional<double> sidecar_number(const std::string& json, const std::string& name) {
  const auto text = pacer::run_metadata_value(json, name);
  if (!text) return std::nullopt;
  return pacer::parse_finite_decimal(*text);
}

/// The spin share of a native log's row from its sidecar (LOG.meta.json), where there is one.
void add_spin_share(Row& row, const std::string& log_path) {
  std::ifstream in{pacer::run_metadata_path(log_path)};
  if (!in || !row.wait) return;
  const std::string json{std::istreambuf_iterator<char>{in}, {}};
  const auto spin = sidecar_number(json, "waiter_spin_ms");
  const auto waited = sidecar_number(json, "waiter_wait_ms");
  if (spin && waited && *waited > 0) row.spin = *row.wait * *spin / *waited;
}

std::vector<std::string> split_commas(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ss{line};
  for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  if (!cells.empty() && !cells.back().empty() && cells.back().back() == '\r') cells.back().pop_back();
  return cells;
}

/// Reads a Godot tick CSV (header already read: `header`) into frame starts and post-draw
/// times (ms; post_draw empty when the column is absent).
Row tick_row(std::istream& in, const std::string& path, const std::vector<std::string>& header,
             std::size_t warmup, double period_ms) {
  const bool has_post = header.size() >= 3 && header[2] == "post_draw_us";
  std::vector<double> starts, posts;
  std::string line;
  for (std::size_t number = 2; std::getline(in, line); ++number) {
    if (line.empty() || line == "\r") continue;
    const auto cells = split_commas(line);
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (cells.size() != header.size())
      throw TickParseError{where + "expected " + std::to_string(header.size()) + " fields, found " +
                           std::to_string(cells.size())};
    auto number_of = [&](std::size_t c) {
      const auto v = pacer::parse_finite_decimal(cells[c]);
      if (!v)
        throw TickParseError{where + "column " + header[c] + ": '" + cells[c] + "' is not a number"};
      return *v / 1000.0;
    };
    starts.push_back(number_of(1));
    if (has_post) posts.push_back(number_of(2));
  }
  Row row;
  row.label = std::filesystem::path{path}.stem().string();
  const auto skip = static_cast<std::ptrdiff_t>(std::min(warmup, starts.size()));
  starts.erase(starts.begin(), starts.begin() + skip);
  if (has_post) posts.erase(posts.begin(), posts.begin() + skip);
  row.frames = starts.size();
  row.fps = fps_of(starts);
  row.start_cadence = cadence_error(starts, period_ms);
  if (has_post) {
    row.present_cadence = cadence_error(posts, period_ms);
    if (row.present_cadence) row.present_source = PresentSource::godot_post_draw;
  }
  return row;
}

std::string cell(const std::optional<double>& v, int digits) {
  return v ? pacer::format_fixed(*v, digits) : std::string{"NA"};
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> inputs;
  double refresh_hz = 60;
  std::size_t warmup = 60;
  {
    // The flag table (CLI11, engine/cli.hpp): usage errors are one line, exit 2.
    CLI::App app{"Prints a Markdown table of the real-loop metrics of native pacing logs and Godot tick CSVs.",
                 "real_loop_report"};
    fpcli::setup(app, FP_VERSION);
    app.add_option("inputs", inputs, "native pacing logs or Godot tick CSVs, optionally labelled")
        ->type_name("[LABEL=]FILE...")->check(fpcli::file_name());
    app.add_option("--refresh-hz", refresh_hz, "target period 1000/HZ ms for the cadence columns (default 60)")
        ->type_name("HZ")->transform(fpcli::real(1, 1000));
    app.add_option("--warmup", warmup, "skip the first N frames of each input (default 60)")
        ->type_name("N")->transform(fpcli::whole(0, 100'000'000));
    if (const int code = fpcli::parse(app, argc, argv); code >= 0) return code;
  }
  if (inputs.empty()) return usage_error("no input given (see --help)");
  const double period_ms = 1000.0 / refresh_hz;

  std::vector<Row> rows;
  for (const auto& input : inputs) {
    std::string label, path = input;
    if (const auto eq = input.find('='); eq != std::string::npos && eq > 0) {
      label = input.substr(0, eq);
      path = input.substr(eq + 1);
    }
    std::ifstream in{path};
    if (!in) return usage_error("cannot read '" + path + "'");
    std::string first;
    std::getline(in, first);
    const auto header = split_commas(first);
    Row row;
    try {
      if (header.size() >= 2 && header[0] == "frame" && header[1] == "tick_us") {
        row = tick_row(in, path, header, warmup, period_ms);
      } else {
        in.clear();
        in.seekg(0);
        const pacer::NativeLog log = pacer::read_native_log(in, path);
        for (const auto& w : log.warnings) std::fprintf(stderr, "real_loop_report: warning: %s\n", w.c_str());
        row = native_row(log, warmup, period_ms);
        add_spin_share(row, path);
        if (row.label.empty()) row.label = std::filesystem::path{path}.stem().string();
      }
    } catch (const pacer::LogParseError& e) {
      return usage_error(e.what());
    } catch (const TickParseError& e) {
      return usage_error(e.what);
    }
    if (!label.empty()) row.label = label;
    rows.push_back(std::move(row));
  }

  bool any_return = false, any_post_draw = false;
  std::printf("| run | fps | p99 present plan error ms | p99 start lateness ms | p99 present cadence error ms "
              "| p99 start cadence error ms | busy %% | wait %% | spin %% |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (const Row& r : rows) {
    std::string cadence = cell(r.present_cadence, 3);
    if (r.present_cadence && r.present_source == PresentSource::present_return) {
      cadence += " \xe2\x80\xa0";  // dagger
      any_return = true;
    } else if (r.present_cadence && r.present_source == PresentSource::godot_post_draw) {
      cadence += " \xe2\x80\xa1";  // double dagger
      any_post_draw = true;
    }
    std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.label.c_str(), cell(r.fps, 2).c_str(),
                cell(r.plan_err, 3).c_str(), cell(r.lateness, 3).c_str(), cadence.c_str(),
                cell(r.start_cadence, 3).c_str(), cell(r.busy, 1).c_str(), cell(r.wait, 1).c_str(),
                cell(r.spin, 1).c_str());
  }
  std::printf("\nFrames per row after a %zu-frame warm-up:", warmup);
  for (const Row& r : rows) std::printf(" %s %zu;", r.label.c_str(), r.frames);
  std::printf(" cadence target %s ms (%s Hz).\n", pacer::format_fixed(period_ms, 3).c_str(),
              pacer::format_fixed(refresh_hz, 2).c_str());
  if (any_return)
    std::printf("\n\xe2\x80\xa0 present_issued_ms is 0 on every row of this log (the column is written but not "
                "filled by this build): the cadence is of present_ms, the present call's return.\n");
  if (any_post_draw)
    std::printf("\n\xe2\x80\xa1 Godot: the cadence of VisualServer's frame_post_draw tick, just after the buffer "
                "swap returns (no issue time is visible to a script).\n");
  return 0;
}
