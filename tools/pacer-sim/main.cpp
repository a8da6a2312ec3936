// pacer-sim: runs any pacing policy in virtual time, deterministically.
//
//   pacer-sim --policy adaptive --render-ms 3 --update-ms 1 --step-ms 5 --interval-ms 16 --no-shrink --frames 3 --timeline
//   R0 U5 U10 U15 U20 W16 R16 U25 U30 U35 W32 R32
//   pacer-sim --compare adaptive,adaptive-literal,accumulator-capped --display fifo:60 ...
//
// Exit 0 on success, 2 on a usage error (one line), 1 on a runtime failure.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pacer/log_writer.hpp"
#include "pacer/policies.hpp"
#include "pacer/simulator.hpp"
#include "pacer/stats.hpp"
#include "pacer/load_profile.hpp"

namespace {

constexpr const char* usage_text = R"(usage: pacer-sim [options]
Runs a pacing policy in virtual time with fixed costs and prints a summary.

  --policy NAME        adaptive (default), adaptive-literal, accumulator, accumulator-capped,
                       flipcode, variable
  --compare P1,P2,...  run several policies on the same workload and display; print a table
  --display SPEC       none (default), fifo:HZ, mailbox:HZ, immediate, immediate:HZ, vrr:MIN-MAX;
                       honest clocks: fifo:60@59.94,drift=100ppm,jitter=50us (actual refresh,
                       clock wander, reported-time jitter)
  --waiter KIND        how waits wake: exact (default without a display), precise (default
                       with one: sleep + spin), sleep (plain OS sleep, overshoots)
  --seed N             seeds every random draw (waiter) (default 1)
  --warmup N           frames skipped by the metrics (default 60; 0 without a display)
  --render-ms X        CPU cost of a render (default 3)
  --load-trace FILE    render cost per frame from the frame_ms column of a CSV (repeats)
  --render-load SPEC   render cost as a load profile (docs/load-profiles.md), e.g. spike:3,40/120
  --update-load SPEC   update cost as a load profile (by frame)
  --trace-scale K      multiplies the trace's costs (default 1)
  --update-ms Y        CPU cost of a fixed update (default 1)
  --step-ms Z          fixed simulation step (default 15.625 = 1/64 s)
  --interval-ms I      initial render interval (adaptive) / target (accumulator-capped) (default 16.666667)
  --min-interval-ms M  adaptive: frame-rate cap (default 4.166667)
  --max-interval-ms M  adaptive: frame-rate floor (default 100)
  --max-steps N        updates per frame at most (default 8)
  --debt discard|keep  what happens to time beyond the step cap (default discard)
  --no-shrink          adaptive: hold the interval (it still widens on overrun)
  --pipeline-frames N  adaptive, fifo: frames start up to N intervals ahead of their display
                       (default 2, at most images - 1; 1: least latency)
  --even-cadence       adaptive: whole refresh periods always, never the mixed cadence
  --frames N           frames to render (default 600)
  --timeline           print the actions in the seed's notation (R<t> U<sim t> W<t>)
  --log FILE           write the native pacing log (CSV; with --compare: FILE.<policy>.csv)
  --quiet              no summary
  --help, --version
)";

struct UsageError {
  std::string message;
};

double parse_number(std::string_view flag, const char* text) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(v >= 0) || v > 1e9) throw UsageError{std::string(flag) + ": not a valid number: '" + text + "'"};
  return v;
}

std::int64_t parse_count(std::string_view flag, const char* text) {
  char* end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || v < 1 || v > 100'000'000) throw UsageError{std::string(flag) + ": not a positive count: '" + text + "'"};
  return v;
}

struct Options {
  std::string policy = "adaptive";
  std::vector<std::string> compare;
  pacer::DisplaySpec display{};
  std::optional<pacer::WaiterKind> waiter;
  std::uint64_t seed = 1;
  std::optional<std::int64_t> warmup;
  std::string trace;
  double trace_scale = 1.0;
  std::string render_load, update_load;  ///< load profile specs
  double render_ms = 3, update_ms = 1;
  std::optional<double> interval_ms;
  std::int64_t frames = 600;
  bool timeline = false, quiet = false;
  std::string log;
  pacer::PolicyConfig config;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) throw UsageError{std::string(a) + " needs a value"};
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::fputs(usage_text, stdout);
      std::exit(0);
    } else if (a == "--version") {
      std::printf("pacer-sim %s\n", FP_VERSION);
      std::exit(0);
    } else if (a == "--policy") {
      o.policy = value();
    } else if (a == "--compare") {
      const std::string_view list = value();
      std::size_t begin = 0;
      while (begin <= list.size()) {
        const std::size_t comma = std::min(list.find(',', begin), list.size());
        if (comma > begin) o.compare.emplace_back(list.substr(begin, comma - begin));
        begin = comma + 1;
      }
      if (o.compare.empty()) throw UsageError{"--compare needs at least one policy"};
    } else if (a == "--display") {
      const char* text = value();
      const auto spec = pacer::parse_display(text);
      if (!spec) throw UsageError{std::string("--display: expected none, fifo:HZ, mailbox:HZ, immediate[:HZ] or vrr:MIN-MAX (options: @HZ, drift=Nppm, jitter=Nus), got '") + text + "'"};
      o.display = *spec;
    } else if (a == "--waiter") {
      const char* text = value();
      o.waiter = pacer::parse_waiter(text);
      if (!o.waiter) throw UsageError{std::string("--waiter: expected exact, precise or sleep, got '") + text + "'"};
    } else if (a == "--seed") {
      char* end = nullptr;
      const char* text = value();
      const unsigned long long v = std::strtoull(text, &end, 10);
      if (end == text || *end != '\0') throw UsageError{std::string("--seed: not a number: '") + text + "'"};
      o.seed = v;
    } else if (a == "--warmup") {
      const char* text = value();
      o.warmup = std::string_view{text} == "0" ? 0 : parse_count(a, text);
    } else if (a == "--load-trace") {
      o.trace = value();
    } else if (a == "--trace-scale") {
      o.trace_scale = parse_number(a, value());
      if (o.trace_scale <= 0) throw UsageError{"--trace-scale must be > 0"};
    } else if (a == "--render-load") {
      o.render_load = value();
    } else if (a == "--update-load") {
      o.update_load = value();
    } else if (a == "--render-ms") {
      o.render_ms = parse_number(a, value());
    } else if (a == "--update-ms") {
      o.update_ms = parse_number(a, value());
    } else if (a == "--step-ms") {
      o.config.sim.step = pacer::from_ms(parse_number(a, value()));
      if (o.config.sim.step <= pacer::Nanos::zero()) throw UsageError{"--step-ms must be > 0"};
    } else if (a == "--interval-ms") {
      o.interval_ms = parse_number(a, value());
    } else if (a == "--min-interval-ms") {
      o.config.adaptive.min_interval = pacer::from_ms(parse_number(a, value()));
    } else if (a == "--max-interval-ms") {
      o.config.adaptive.max_interval = pacer::from_ms(parse_number(a, value()));
    } else if (a == "--max-steps") {
      o.config.sim.max_steps_per_frame = static_cast<int>(parse_count(a, value()));
    } else if (a == "--debt") {
      const std::string_view d = value();
      if (d == "discard") o.config.sim.debt = pacer::DebtPolicy::discard;
      else if (d == "keep") o.config.sim.debt = pacer::DebtPolicy::keep;
      else throw UsageError{"--debt: expected discard or keep, got '" + std::string(d) + "'"};
    } else if (a == "--no-shrink") {
      o.config.adaptive.shrink = false;
    } else if (a == "--pipeline-frames") {
      const std::int64_t n = parse_count(a, value());
      if (n > 8) throw UsageError{"--pipeline-frames: expected 1 to 8, got " + std::to_string(n)};
      o.config.adaptive.pipeline_frames = static_cast<int>(n);
    } else if (a == "--even-cadence") {
      o.config.adaptive.mixed_cadence_loss = 1;
    } else if (a == "--frames") {
      o.frames = parse_count(a, value());
    } else if (a == "--timeline") {
      o.timeline = true;
    } else if (a == "--quiet") {
      o.quiet = true;
    } else if (a == "--log") {
      o.log = value();
    } else {
      throw UsageError{"unknown option '" + std::string(a) + "' (see --help)"};
    }
  }
  if (o.interval_ms) {
    const pacer::Nanos interval = pacer::from_ms(*o.interval_ms);
    if (interval <= pacer::Nanos::zero()) throw UsageError{"--interval-ms must be > 0"};
    o.config.adaptive.initial_interval = interval;
    o.config.capped_interval = interval;
    // An explicit interval outside the default bounds moves the bounds with it.
    o.config.adaptive.min_interval = std::min(o.config.adaptive.min_interval, interval);
    o.config.adaptive.max_interval = std::max(o.config.adaptive.max_interval, interval);
  }
  // The policies learn the display they pace: its refresh period (fixed refresh) or its
  // fastest refresh (vrr: no frame rate above the panel's).
  pacer::fit_to_display(o.config, o.display);
  if (o.config.adaptive.min_interval > o.config.adaptive.max_interval)
    throw UsageError{"--min-interval-ms must not exceed --max-interval-ms"};
  return o;
}

}  // namespace

namespace {

struct Result {
  std::string policy;
  pacer::SimRun run;
  pacer::Summary summary;
  pacer::Nanos interval{0};
};

void print_summary(const Result& r, pacer::Nanos end) {
  const pacer::Summary& s = r.summary;
  std::printf("policy %s: %lld frames in %.3f ms of virtual time\n", r.policy.c_str(),
              static_cast<long long>(s.frames), pacer::to_ms(end));
  std::printf("  average fps %.2f, frame interval mean %.3f ms, p99 %.3f ms, max %.3f ms\n", s.average_fps,
              s.interval_mean_ms, s.interval_p99_ms, s.interval_max_ms);
  std::printf("  |animation error| p50 %.3f ms, p99 %.3f ms, max %.3f ms; stutter %.2f%% of time\n",
              s.anim_error_p50_ms, s.anim_error_p99_ms, s.anim_error_max_ms, s.stutter_time_pct);
  std::printf("  busy %.1f%%, waiting %.1f%%; %lld updates, %.3f ms dropped; interval now %.3f ms, %lld changes\n",
              100 * s.busy_share, 100 * s.wait_share, static_cast<long long>(s.sim_steps), s.dropped_ms,
              pacer::to_ms(r.interval), static_cast<long long>(s.interval_changes));
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "pacer-sim: %s\n", e.message.c_str());
    return 2;
  }
  std::vector<std::string> policies = o.compare.empty() ? std::vector<std::string>{o.policy} : o.compare;
  // An unknown name, or a config a policy refuses (min > max interval, ...): a usage error.
  for (const auto& name : policies) {
    try {
      (void)pacer::create_pacer(name, o.config);
    } catch (const std::invalid_argument& e) {
      std::fprintf(stderr, "pacer-sim: %s\n", e.what());
      return 2;
    }
  }

  // Costs: fixed by default; load profiles (docs/load-profiles.md) where given.
  pacer::LoadSet load{pacer::LoadProfile::constant(o.render_ms), pacer::LoadProfile::constant(o.update_ms), {}};
  try {
    const pacer::TraceOpener open = [](const std::string& path) -> std::unique_ptr<std::istream> {
      auto in = std::make_unique<std::ifstream>(path);
      if (!*in) return nullptr;
      return in;
    };
    std::string render_spec = o.render_load;
    if (!o.trace.empty()) render_spec = "trace:" + o.trace + ",scale=" + std::to_string(o.trace_scale) + ",loop";
    if (!render_spec.empty()) load.render = pacer::LoadProfile::parse(render_spec, open);
    if (!o.update_load.empty()) load.update = pacer::LoadProfile::parse(o.update_load, open);
  } catch (const pacer::LoadSpecError& e) {
    std::fprintf(stderr, "pacer-sim: %s\n", e.what());
    return 2;
  }
  const pacer::SimCosts costs = pacer::sim_costs(load);
  const bool has_display = o.display.mode != pacer::PresentMode::none;
  pacer::SimOptions sim;
  sim.display = o.display;
  sim.waiter = o.waiter.value_or(has_display ? pacer::WaiterKind::precise : pacer::WaiterKind::exact);
  sim.seed = o.seed;
  pacer::StatsOptions stats;
  stats.warmup_frames = o.warmup.value_or(has_display ? 60 : 0);

  // Each run streams: records go to the summary and the log as they complete, none is
  // kept, so memory is flat in --frames (the timeline, when asked for, is the exception).
  std::vector<Result> results;
  for (std::size_t i = 0; i < policies.size(); ++i) {
    const std::string& name = policies[i];
    auto pacer = pacer::make_pacer(name, o.config);
    std::ofstream file;
    std::optional<pacer::NativeLogWriter> writer;
    const std::string path = o.log.empty() ? "" : o.compare.empty() ? o.log : o.log + "." + name + ".csv";
    if (!path.empty()) {
      file.open(path, std::ios::out | std::ios::trunc);
      if (!file) {
        std::fprintf(stderr, "pacer-sim: cannot open log '%s'\n", path.c_str());
        return 1;
      }
      writer.emplace(file);
    }
    pacer::SummaryBuilder summary{stats};
    sim.timeline = o.timeline && i == 0;
    Result r;
    r.policy = name;
    r.run = pacer::simulate(*pacer, costs, o.frames, sim, [&](const pacer::FrameRecord& rec) {
      summary.add(rec);
      if (writer) writer->write(rec);
    });
    r.summary = summary.result();
    r.interval = pacer->interval();
    if (writer) {
      file.flush();
      if (!file) {
        std::fprintf(stderr, "pacer-sim: writing log '%s' failed\n", path.c_str());
        return 1;
      }
    }
    results.push_back(std::move(r));
  }

  if (o.timeline) std::printf("%s\n", pacer::format_timeline(results.front().run.timeline).c_str());
  if (o.quiet || o.timeline) return 0;
  if (o.compare.empty()) {
    print_summary(results.front(), results.front().run.end);
    return 0;
  }
  std::printf("display %s, waiter %s, seed %llu, %lld frames, warm-up %lld\n", pacer::to_string(o.display).c_str(),
              std::string(pacer::to_string(sim.waiter)).c_str(), static_cast<unsigned long long>(o.seed),
              static_cast<long long>(o.frames), static_cast<long long>(stats.warmup_frames));
  std::printf("%-20s %8s %9s %9s %9s %9s %9s %9s %8s\n", "policy", "avg fps", "anim p50", "anim p99", "anim max",
              "stutter%", "int p99", "late p99", "chg/min");
  for (const auto& r : results) {
    const pacer::Summary& s = r.summary;
    std::printf("%-20s %8.2f %9.3f %9.3f %9.3f %9.2f %9.3f %9.3f %8.1f\n", r.policy.c_str(), s.average_fps,
                s.anim_error_p50_ms, s.anim_error_p99_ms, s.anim_error_max_ms, s.stutter_time_pct, s.interval_p99_ms,
                s.lateness_p99_ms, s.interval_changes_per_min);
  }
  return 0;
}
