// render_thread_report: the table of bench/render_thread.sh. One Markdown row per native
// pacing log (LABEL=PATH or PATH), over the frames after the warm-up:
//   fps                 frames / (last frame start - first frame start)
//   p99 |anim err| ms   pacer::summarize (docs/log-format.md, Metrics)
//   p50 latency ms      p50 of (shown - frame start): shown is display_ms where known, else present_ms
//   p99 frame ms        p99 of the frame-start interval
//   stutters            CapFrameX's rule (pacer::summarize)
// and, for each row after the first with the same policy, fps against that first row.
// Then a row per group of rounds (the label less a trailing " #N"): the median over its runs
// of fps and of the p99 |anim err|, and the p99 and p95 |anim err| of all its runs' frames
// pooled (one run's p99 rests on its ten worst frames in a thousand: the pooled figure and the
// median are what to compare single and threaded on).
//
//   render_thread_report single=single.csv threaded=threaded.csv
//
// Exit 0 on success; 2 on a usage error or an unreadable or malformed log (one line).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "engine/cli.hpp"
#include "pacer/log_reader.hpp"
#include "pacer/stats.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> inputs;
  std::int64_t warmup = 60;
  {
    CLI::App app{"The table of bench/render_thread.sh: fps, p99 |animation error|, p50 latency, p99 frame time and "
                 "stutters of native pacing logs.",
                 "render_thread_report"};
    fpcli::setup(app, FP_VERSION);
    app.add_option("inputs", inputs, "[LABEL=]FILE native pacing logs")->required();
    app.add_option("--warmup", warmup, "skip the first N frames of each log (default 60)")
        ->type_name("N")->transform(fpcli::whole(0, 100'000'000));
    if (const int code = fpcli::parse(app, argc, argv); code >= 0) return code;
  }
  struct Row {
    std::string label, policy;
    double fps, anim_p99, latency_p50, frame_p99;
    std::int64_t stutters;
    std::vector<double> anim_errors;  ///< |animation error| of each frame after the warm-up
  };
  std::vector<Row> rows;
  for (const std::string& input : inputs) {
    const auto eq = input.find('=');
    const std::string path = eq == std::string::npos ? input : input.substr(eq + 1);
    std::ifstream in{path};
    if (!in) return fpcli::usage_error("render_thread_report", "cannot open '" + fpcli::printable(path) + "'");
    pacer::NativeLog log;
    try {
      log = pacer::read_native_log(in, path);
    } catch (const pacer::LogParseError& e) {
      return fpcli::usage_error("render_thread_report", e.what());
    }
    if (static_cast<std::int64_t>(log.records.size()) < warmup + 2)
      return fpcli::usage_error("render_thread_report", "'" + fpcli::printable(path) + "' has too few frames after the warm-up");
    pacer::StatsOptions opt;
    opt.warmup_frames = warmup;
    const pacer::Summary s = pacer::summarize(log.records, opt);
    std::vector<double> latency, gaps, anim;
    const auto w = static_cast<std::size_t>(warmup);
    for (std::size_t i = w; i < log.records.size(); ++i) {
      const pacer::FrameRecord& r = log.records[i];
      latency.push_back(pacer::to_ms(pacer::shown_time(r) - r.cpu_start));
      if (i > w) {
        const pacer::FrameRecord& prev = log.records[i - 1];
        gaps.push_back(pacer::to_ms(r.cpu_start - prev.cpu_start));
        anim.push_back(std::abs(pacer::to_ms(pacer::animation_error(prev, r))));
      }
    }
    const double span = pacer::to_ms(log.records.back().cpu_start - log.records[w].cpu_start);
    Row row;
    row.policy = log.policy_names.empty() ? std::string{} : log.policy_names.front();
    row.label = eq == std::string::npos ? row.policy : input.substr(0, eq);
    row.fps = static_cast<double>(log.records.size() - w - 1) * 1000.0 / span;
    row.anim_p99 = s.anim_error_p99_ms;
    row.latency_p50 = pacer::percentile(latency, 50);
    row.frame_p99 = pacer::percentile(gaps, 99);
    row.stutters = static_cast<std::int64_t>(s.stutters);
    row.anim_errors = std::move(anim);
    rows.push_back(row);
  }
  std::printf("| run | fps | fps vs the first run of its policy | p99 \\|anim err\\| ms | p50 latency ms | p99 frame ms | stutters |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
  for (const Row& r : rows) {
    const Row* first = nullptr;
    for (const Row& f : rows)
      if (f.policy == r.policy) {
        first = &f;
        break;
      }
    std::printf("| %s | %.2f | %.2fx | %.3f | %.2f | %.2f | %lld |\n", r.label.c_str(), r.fps, r.fps / first->fps,
                r.anim_p99, r.latency_p50, r.frame_p99, static_cast<long long>(r.stutters));
  }
  // Groups of rounds: "adaptive threaded #2" belongs to "adaptive threaded".
  const auto group_of = [](const std::string& label) {
    const auto hash = label.rfind(" #");
    return hash != std::string::npos && hash + 2 < label.size() &&
                   std::all_of(label.begin() + static_cast<std::ptrdiff_t>(hash + 2), label.end(),
                               [](char c) { return c >= '0' && c <= '9'; })
               ? label.substr(0, hash)
               : label;
  };
  std::vector<std::string> groups;
  for (const Row& r : rows)
    if (std::find(groups.begin(), groups.end(), group_of(r.label)) == groups.end()) groups.push_back(group_of(r.label));
  std::printf("\n| runs of | runs | median fps | median of the runs' p99 \\|anim err\\| ms | pooled p99 \\|anim err\\| ms | pooled p95 \\|anim err\\| ms |\n");
  std::printf("|---|---:|---:|---:|---:|---:|\n");
  for (const std::string& g : groups) {
    std::vector<double> fps, p99, pooled;
    for (const Row& r : rows) {
      if (group_of(r.label) != g) continue;
      fps.push_back(r.fps);
      p99.push_back(r.anim_p99);
      pooled.insert(pooled.end(), r.anim_errors.begin(), r.anim_errors.end());
    }
    std::printf("| %s | %zu | %.2f | %.3f | %.3f | %.3f |\n", g.c_str(), fps.size(), pacer::percentile(fps, 50),
                pacer::percentile(p99, 50), pacer::percentile(pooled, 99), pacer::percentile(pooled, 95));
  }
  return 0;
}
