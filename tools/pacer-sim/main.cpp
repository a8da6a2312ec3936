// pacer-sim: runs any pacing policy in virtual time, deterministically.
//
//   pacer-sim --policy adaptive --render-ms 3 --update-ms 1 --step-ms 5 --interval-ms 16 --no-shrink --frames 3 --timeline
//   R0 U5 U10 U15 U20 W16 R16 U25 U30 U35 W32 R32
//
// Exit 0 on success, 2 on a usage error (one line), 1 on a runtime failure.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "pacer/log_writer.hpp"
#include "pacer/policies.hpp"
#include "pacer/simulator.hpp"
#include "pacer/stats.hpp"

namespace {

constexpr const char* usage_text = R"(usage: pacer-sim [options]
Runs a pacing policy in virtual time with fixed costs and prints a summary.

  --policy NAME        adaptive (default), accumulator, accumulator-capped, flipcode, variable
  --render-ms X        CPU cost of a render (default 3)
  --update-ms Y        CPU cost of a fixed update (default 1)
  --step-ms Z          fixed simulation step (default 15.625 = 1/64 s)
  --interval-ms I      initial render interval (adaptive) / target (accumulator-capped) (default 16.666667)
  --min-interval-ms M  adaptive: frame-rate cap (default 4.166667)
  --max-interval-ms M  adaptive: frame-rate floor (default 100)
  --max-steps N        updates per frame at most (default 8)
  --debt discard|keep  what happens to time beyond the step cap (default discard)
  --no-shrink          adaptive: hold the interval (it still widens on overrun)
  --frames N           frames to render (default 600)
  --timeline           print the actions in the seed's notation (R<t> U<sim t> W<t>)
  --log FILE           write the native pacing log (CSV)
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
  if (o.config.adaptive.min_interval > o.config.adaptive.max_interval)
    throw UsageError{"--min-interval-ms must not exceed --max-interval-ms"};
  return o;
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
  auto pacer = pacer::make_pacer(o.policy, o.config);
  if (!pacer) {
    std::string names;
    for (auto n : pacer::policy_names()) names += (names.empty() ? "" : ", ") + std::string(n);
    std::fprintf(stderr, "pacer-sim: unknown policy '%s' (one of: %s)\n", o.policy.c_str(), names.c_str());
    return 2;
  }

  std::ofstream log_file;
  if (!o.log.empty()) {
    log_file.open(o.log, std::ios::out | std::ios::trunc);
    if (!log_file) {
      std::fprintf(stderr, "pacer-sim: cannot write log '%s'\n", o.log.c_str());
      return 1;
    }
  }

  const pacer::SimRun run =
      pacer::simulate(*pacer, pacer::SimCosts::fixed(pacer::from_ms(o.render_ms), pacer::from_ms(o.update_ms)), o.frames);

  if (log_file.is_open()) {
    pacer::NativeLogWriter writer{log_file};
    for (const auto& r : run.records) writer.write(r);
    log_file.flush();
    if (!log_file) {
      std::fprintf(stderr, "pacer-sim: writing log '%s' failed\n", o.log.c_str());
      return 1;
    }
  }
  if (o.timeline) std::printf("%s\n", pacer::format_timeline(run.timeline).c_str());
  if (!o.quiet && !o.timeline) {
    const pacer::Summary s = pacer::summarize(run.records);
    std::printf("policy %s: %lld frames in %.3f ms of virtual time\n", std::string(pacer->name()).c_str(),
                static_cast<long long>(s.frames), pacer::to_ms(run.end));
    std::printf("  average fps %.2f, frame interval mean %.3f ms, p99 %.3f ms, max %.3f ms\n", s.average_fps,
                s.interval_mean_ms, s.interval_p99_ms, s.interval_max_ms);
    std::printf("  |animation error| p50 %.3f ms, p99 %.3f ms, max %.3f ms; stutter %.2f%% of time\n",
                s.anim_error_p50_ms, s.anim_error_p99_ms, s.anim_error_max_ms, s.stutter_time_pct);
    std::printf("  busy %.1f%%, waiting %.1f%%; %lld updates, %.3f ms dropped; interval now %.3f ms, %lld changes\n",
                100 * s.busy_share, 100 * s.wait_share, static_cast<long long>(s.sim_steps), s.dropped_ms,
                pacer::to_ms(pacer->interval()), static_cast<long long>(s.interval_changes));
  }
  return 0;
}
