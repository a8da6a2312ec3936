// pacer-sim: runs any pacing policy in virtual time, deterministically.
//
//   pacer-sim --policy adaptive --render-ms 3 --update-ms 1 --step-ms 5 --interval-ms 16 --no-shrink --frames 3 --timeline
//   R0 U5 U10 U15 U20 W16 R16 U25 U30 U35 W32 R32
//   pacer-sim --compare adaptive,adaptive-literal,accumulator-capped --display fifo:60 ...
//   pacer-sim --replay out/adaptive.csv --display immediate:60 --step-ms 40 --log replayed.csv
//
// Exit 0 on success, 2 on a usage error (one line), 1 on a runtime failure.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pacer/exports.hpp"
#include "pacer/log_reader.hpp"
#include "pacer/log_writer.hpp"
#include "pacer/policies.hpp"
#include "pacer/simulator.hpp"
#include "pacer/stats.hpp"
#include "pacer/load_profile.hpp"
#include "engine/cli.hpp"

namespace {

struct UsageError {
  std::string message;
};

struct Options {
  std::string policy = "adaptive";
  std::vector<std::string> compare;
  pacer::DisplaySpec display{};
  std::optional<pacer::WaiterKind> waiter;
  std::uint64_t seed = 1;
  std::optional<std::int64_t> warmup;
  std::string trace;
  std::string replay;  ///< a native log whose measured costs are replayed
  std::string sidecar;  ///< the replayed log's sidecar, where its settings came from
  double trace_scale = 1.0;
  bool min_interval_given = false;
  std::string render_load, update_load, gpu_time, present_load;  ///< load profile specs
  double render_ms = 3, update_ms = 1;
  std::optional<double> interval_ms;
  std::int64_t frames = 600;
  bool frames_given = false;
  std::optional<bool> display_times;  ///< --display-times yes|no; default yes (--replay: as the log has them)
  bool timeline = false, quiet = false;
  std::string log;
  pacer::PolicyConfig config;
  /// --adaptive NAME=VALUE: fields of the adaptive policies' config (pacer::set_knob), set
  /// after the display has fitted the config.
  std::vector<std::pair<std::string, double>> knobs;
};

/// Frames at most: the simulator keeps a record per frame (about 250 bytes) in memory.
constexpr long long kMaxFrames = 10'000'000;
/// CPU costs and intervals at most, ms: 10 s (with kMaxFrames, virtual time stays far from
/// the 292 years a signed 64-bit nanosecond count holds).
constexpr double kMaxMs = 10'000;
/// Virtual time at most: 100 years (int64 nanoseconds hold 292).
constexpr double kMaxVirtualMs = 100.0 * 365.25 * 24 * 3600 * 1000;

void finish(Options& o);
void from_sidecar(Options& o, const std::function<bool(const char*)>& given);

/// The non-empty pieces of `list` between `sep`s ("a,,b" -> a, b).
std::vector<std::string> split_list(const std::string& list, char sep) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  while (begin <= list.size()) {
    const std::size_t end = std::min(list.find(sep, begin), list.size());
    if (end > begin) out.push_back(list.substr(begin, end - begin));
    begin = end + 1;
  }
  return out;
}

/// The log `policy`'s run writes: --log, or with --compare FILE.<policy>.csv ("" without --log).
std::string log_path(const Options& o, const std::string& policy) {
  if (o.log.empty()) return "";
  return o.compare.empty() ? o.log : o.log + "." + policy + ".csv";
}

/// Parses the flag table (CLI11, engine/cli.hpp). Returns -1 to go on, else the exit code
/// (0 after --help/--version, 2 after a usage error, printed on one line).
int parse(int argc, char** argv, Options& o) {
  CLI::App app{"Runs a pacing policy in virtual time with fixed costs and prints a summary.", "pacer-sim"};
  fpcli::setup(app, FP_VERSION);
  std::vector<std::string> policies;
  for (auto n : pacer::policy_names()) policies.emplace_back(n);
  std::string policy_list;
  for (const auto& n : policies) policy_list += (policy_list.empty() ? "" : ", ") + n;
  app.add_option("--policy", o.policy, policy_list + " (default adaptive)")->type_name("NAME")->check(fpcli::one_of(policies));
  app.add_option_function<std::string>(
         "--compare",
         [&o](const std::string& list) {
           for (auto& name : split_list(list, ',')) o.compare.push_back(std::move(name));
         },
         "run several policies on the same workload and display; print a table")
      ->type_name("P1,P2,...")
      ->check(CLI::Validator(
          [policies](std::string& list) -> std::string {
            const std::vector<std::string> names = split_list(list, ',');
            for (const auto& name : names)
              if (std::find(policies.begin(), policies.end(), name) == policies.end())
                return "unknown policy '" + fpcli::printable(name) + "'";
            return names.empty() ? "needs at least one policy" : "";
          },
          ""));
  app.add_option_function<std::string>(
         "--display", [&o](const std::string& text) { o.display = *pacer::parse_display(text); },
         "none (default), offscreen, fifo:HZ, mailbox:HZ, immediate, immediate:HZ, vrr:MIN-MAX, fifo or mailbox "
         "with no rate (one nobody knows, as under Xvfb: shown when presented); honest clocks: "
         "fifo:60@59.94,drift=100ppm,jitter=50us (HZ 1 to 10000, drift at most 100000ppm, jitter at most 1s)")
      ->type_name("SPEC")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            if (pacer::parse_display(text)) return "";
            return "expected none, offscreen, fifo:HZ, mailbox:HZ, immediate[:HZ] or vrr:MIN-MAX (options: @HZ, drift=Nppm, "
                   "jitter=Nus; HZ 1 to 10000), got '" + fpcli::printable(text) + "'";
          },
          ""));
  app.add_option_function<std::string>(
         "--waiter", [&o](const std::string& text) { o.waiter = pacer::parse_waiter(text); },
         "how waits wake: exact (default without a display), precise (default with one: sleep + spin), sleep")
      ->type_name("KIND")->check(fpcli::one_of({"exact", "precise", "sleep"}));
  app.add_option("--seed", o.seed, "seeds every random draw (waiter) (default 1)")->type_name("N")->transform(fpcli::whole(0, fpcli::max_seed));
  app.add_option_function<std::int64_t>("--warmup", [&o](std::int64_t n) { o.warmup = n; },
                                        "frames skipped by the metrics (default 60; 0 without a display)")
      ->type_name("N")->transform(fpcli::whole(0, kMaxFrames));
  app.add_option("--load-trace", o.trace, "render cost per frame from the frame_ms column of a CSV (repeats); "
                 "relative paths are also looked up under traces/")
      ->type_name("FILE")->check(fpcli::file_name());
  auto* replay = app.add_option("--replay", o.replay,
                 "replay a native pacing log's measured costs (render, present call, updates), "
                 "e.g. a real run's, in virtual time; --frames defaults to the log's rows (docs/pacing.md)")
      ->type_name("LOG")->check(fpcli::file_name());
  app.add_option("--render-load", o.render_load, "render cost as a load profile (docs/load-profiles.md), e.g. spike:3,40/120")
      ->type_name("SPEC");
  app.add_option("--update-load", o.update_load, "update cost as a load profile (by frame)")->type_name("SPEC");
  app.add_option("--present-load", o.present_load, "CPU time of each present call as a load profile in ms "
                 "(default none), spent after any hold of the present")
      ->type_name("SPEC");
  app.add_option("--gpu-time", o.gpu_time, "GPU time of each frame's work as a load profile in ms (default none: "
                 "no GPU cost); 2 frames in flight, as the renderer has")
      ->type_name("SPEC");
  app.add_option("--trace-scale", o.trace_scale, "multiplies the trace's costs (default 1)")->type_name("K")->transform(fpcli::real(0.001, 1000));
  app.add_option("--render-ms", o.render_ms, "CPU cost of a render (default 3)")->type_name("X")->transform(fpcli::real(0, kMaxMs));
  app.add_option("--update-ms", o.update_ms, "CPU cost of a fixed update (default 1)")->type_name("Y")->transform(fpcli::real(0, kMaxMs));
  app.add_option_function<double>("--step-ms", [&o](double v) { o.config.sim.step = pacer::from_ms(v); },
                                  "fixed simulation step (default 15.625 = 1/64 s)")
      ->type_name("Z")->transform(fpcli::real(0.001, kMaxMs));
  app.add_option_function<double>("--interval-ms", [&o](double v) { o.interval_ms = v; },
                                  "initial render interval (adaptive) / target (accumulator-capped) (default 16.666667)")
      ->type_name("I")->transform(fpcli::real(0.01, kMaxMs));
  app.add_option_function<double>("--min-interval-ms", [&o](double v) {
        o.config.adaptive.min_interval = pacer::from_ms(v);
        o.min_interval_given = true;
      },
                                  "adaptive: frame-rate cap (default 4.166667)")
      ->type_name("M")->transform(fpcli::real(0.01, kMaxMs));
  app.add_option_function<double>("--max-interval-ms", [&o](double v) { o.config.adaptive.max_interval = pacer::from_ms(v); },
                                  "adaptive: frame-rate floor (default 100)")
      ->type_name("M")->transform(fpcli::real(0.01, kMaxMs));
  fpcli::add_pacing_flags(app, o.config);
  app.add_option_function<std::string>(
         "--display-times", [&o](const std::string& v) { o.display_times = v == "yes"; },
         "whether the loop hears when frames are shown: yes (default), no (a windowed present with no "
         "present-wait, as the engine on lavapipe; with --replay the default is what the log has)")
      ->type_name("yes|no")->check(fpcli::one_of({"yes", "no"}));
  auto* frames = app.add_option("--frames", o.frames, "frames to render (default 600; with --replay the log's rows)")
      ->type_name("N")->transform(fpcli::whole(1, kMaxFrames));
  app.add_flag("--timeline", o.timeline, "print the actions in the seed's notation (R<t> U<sim t> W<t>)");
  app.add_option("--log", o.log, "write the native pacing log (CSV; with --compare: FILE.<policy>.csv)")
      ->type_name("FILE")->check(fpcli::file_name());
  app.add_flag("--quiet", o.quiet, "no summary");
  std::vector<std::string> knobs;
  fpcli::add_adaptive_flag(app, knobs);
  if (const int code = fpcli::parse(app, argc, argv); code >= 0) return code;
  for (const auto& k : knobs) {
    std::pair<std::string, double> knob;
    if (const std::string why = fpcli::parse_knob(k, knob); !why.empty()) return fpcli::usage_error("pacer-sim", "--adaptive: " + why);
    o.knobs.push_back(knob);
  }
  o.frames_given = frames->count() > 0;
  // Two flags for one thing: one of them would be ignored without a word.
  const auto given = [&app](const char* flag) { return app.get_option(flag)->count() > 0; };
  const std::pair<const char*, const char*> one_of_each[] = {
      {"--render-ms", "--render-load"}, {"--render-ms", "--load-trace"}, {"--render-load", "--load-trace"},
      {"--update-ms", "--update-load"}, {"--policy", "--compare"},      {"--timeline", "--compare"}};
  for (const auto& [a, b] : one_of_each)
    if (given(a) && given(b))
      return fpcli::usage_error("pacer-sim", std::string{a} + ": " + b + " is given too; they set the same thing (drop one)");
  if (replay->count() > 0)
    for (const char* flag : {"--load-trace", "--render-load", "--update-load", "--gpu-time", "--present-load", "--render-ms",
                             "--update-ms", "--trace-scale"})
      if (app.get_option(flag)->count() > 0)
        return fpcli::usage_error("pacer-sim", std::string{"--replay takes the costs from the log: drop "} + flag);
  // A log written over the log it replays or the trace it was made from would lose that
  // input: with --compare each FILE.<policy>.csv it writes.
  if (!o.log.empty()) {
    for (const auto& name : o.compare.empty() ? std::vector<std::string>{o.policy} : o.compare) {
      const std::string out = log_path(o, name);
      if (fpcli::same_file(out, o.replay))
        return fpcli::usage_error("pacer-sim", "--log: '" + fpcli::printable(out) + "' is also the --replay log");
      if (fpcli::same_file(out, o.trace))
        return fpcli::usage_error("pacer-sim", "--log: '" + fpcli::printable(out) + "' is also the --load-trace file");
    }
  }
  try {
    if (replay->count() > 0) from_sidecar(o, given);
    finish(o);
  } catch (const UsageError& e) {
    return fpcli::usage_error("pacer-sim", e.message);
  }
  return -1;
}

/// --replay: the run's own policy, display, step, step cap, interval and waiter from the log's sidecar
/// (LOG.meta.json, docs/log-format.md) where there is one, unless given as flags.
void from_sidecar(Options& o, const std::function<bool(const char*)>& given) {
  const std::string path = pacer::run_metadata_path(o.replay);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return;  // no sidecar: the flags and defaults
  try {
    // Not a native log (a PresentMon or MangoHud export of a run, a broken header): the log's
    // reader names what it is when the log is read; the sidecar, which describes the run,
    // must not be what the error speaks of.
    std::ifstream log{o.replay};
    const pacer::NativeLogReader header{log, o.replay};
  } catch (const pacer::LogParseError&) {
    return;
  }
  const auto refuse = [&](const std::string& why) {
    return UsageError{"--replay: sidecar '" + fpcli::printable(path) + "' " + why + "; give the flags instead, or move it away"};
  };
  if (!std::filesystem::is_regular_file(path, ec)) throw refuse("is not a file");
  std::ifstream in{path};
  std::string json;
  if (in) json.assign(std::istreambuf_iterator<char>{in}, {});
  if (!in && !in.eof()) throw refuse("cannot be read");
  // Read as a whole JSON object or not at all: one cut short (a run killed while writing it)
  // or not JSON would have left some settings to the defaults without a word.
  const auto first = json.find_first_not_of(" \t\r\n");
  const auto last = json.find_last_not_of(" \t\r\n");
  if (first == std::string::npos || json[first] != '{' || json[last] != '}')
    throw refuse("is not a whole JSON object (cut short?)");
  const auto bad = [&](const std::string& key, const std::string& value) {
    return UsageError{"--replay: sidecar '" + fpcli::printable(path) + "': " + key + " '" + fpcli::printable(value) +
                      "' is not one pacer-sim takes; give the flag instead"};
  };
  const auto flag = [&](const std::string& key, const std::string& value) {
    if (value != "true" && value != "false") throw bad(key, value);
    return value == "true";
  };
  // A render thread's log holds the simulation thread's part of each frame (docs/render-thread.md):
  // the simulator has no render thread to replay the rest on.
  if (const auto v = pacer::run_metadata_value(json, "render_thread")) {
    if (flag("render_thread", *v))
      throw UsageError{"--replay: '" + fpcli::printable(o.replay) + "' is a --render-thread run (its sidecar says so); "
                       "the simulator has no render thread to replay it on"};
  }
  // A plain decimal number, as the engine writes it (no hex, no spaces, no "inf").
  const auto number = [&](const std::string& key, const std::string& value, double lo, double hi) {
    const auto v = pacer::parse_decimal(value);
    if (!v || !(*v >= lo && *v <= hi)) throw bad(key, value);
    return *v;
  };
  if (const auto v = pacer::run_metadata_value(json, "policy"); v && !given("--policy") && o.compare.empty()) {
    if (!pacer::is_policy_name(*v)) throw bad("policy", *v);
    o.policy = *v;
  }
  if (const auto v = pacer::run_metadata_value(json, "display"); v && !given("--display")) {
    const auto spec = pacer::parse_display(*v);
    if (!spec) throw bad("display", *v);
    o.display = *spec;
  }
  if (const auto v = pacer::run_metadata_value(json, "step_ms"); v && !given("--step-ms"))
    o.config.sim.step = pacer::from_ms(number("step_ms", *v, 0.001, kMaxMs));
  const auto whole = [&](const std::string& key, const std::string& value, int lo, int hi) {
    const double n = number(key, value, lo, hi);
    if (n != std::floor(n)) throw bad(key, value);
    return static_cast<int>(n);
  };
  if (const auto v = pacer::run_metadata_value(json, "max_steps_per_frame"); v && !given("--max-steps"))
    o.config.sim.max_steps_per_frame = whole("max_steps_per_frame", *v, 1, 10'000);
  if (const auto v = pacer::run_metadata_value(json, "initial_interval_ms"); v && !given("--interval-ms"))
    o.interval_ms = number("initial_interval_ms", *v, 0.01, kMaxMs);
  if (const auto v = pacer::run_metadata_value(json, "waiter"); v && !given("--waiter")) {
    const auto kind = pacer::parse_waiter(*v);
    if (!kind) throw bad("waiter", *v);
    o.waiter = *kind;
  }
  // The pacing flags the run was given (sidecars before these keys: give the flags again).
  if (const auto v = pacer::run_metadata_value(json, "debt"); v && !given("--debt")) {
    if (*v != "keep" && *v != "discard") throw bad("debt", *v);
    o.config.sim.debt = *v == "keep" ? pacer::DebtPolicy::keep : pacer::DebtPolicy::discard;
  }
  if (const auto v = pacer::run_metadata_value(json, "pipeline_frames"); v && !given("--pipeline-frames"))
    o.config.adaptive.pipeline_frames = whole("pipeline_frames", *v, 1, 8);
  if (const auto v = pacer::run_metadata_value(json, "shrink"); v && !given("--no-shrink") && !flag("shrink", *v))
    o.config.adaptive.shrink = false;
  if (const auto v = pacer::run_metadata_value(json, "even_cadence"); v && !given("--even-cadence") && flag("even_cadence", *v))
    o.config.adaptive.mixed_cadence_loss = 1;
  // The run's --adaptive NAME=VALUE settings, space-separated (none: "").
  if (const auto v = pacer::run_metadata_value(json, "adaptive"); v && !given("--adaptive")) {
    for (const auto& text : split_list(*v, ' ')) {
      std::pair<std::string, double> knob;
      if (!fpcli::parse_knob(text, knob).empty()) throw bad("adaptive", *v);
      o.knobs.push_back(knob);
    }
  }
  o.sidecar = path;
}

/// The checks that span flags, and the config the flags imply.
void finish(Options& o) {
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
  const pacer::Nanos asked_min = o.config.adaptive.min_interval;
  pacer::fit_to_display(o.config, o.display);
  // An explicit frame-rate cap wins over the one assumed for a display of unknown rate
  // (immediate); a VRR panel's fastest refresh still bounds it.
  if (o.min_interval_given && o.display.mode != pacer::PresentMode::vrr) o.config.adaptive.min_interval = asked_min;
  if (o.config.adaptive.min_interval > o.config.adaptive.max_interval)
    throw UsageError{"--min-interval-ms must not exceed --max-interval-ms"};
  // --adaptive: after the display's fit, so a knob wins over what the display implies.
  if (!o.knobs.empty()) {
    for (const auto& [name, value] : o.knobs) pacer::set_knob(o.config.adaptive, name, value);
    try {
      pacer::validate(o.config.adaptive);
    } catch (const std::invalid_argument& e) {
      throw UsageError{std::string{"--adaptive: "} + e.what()};
    }
  }
  // Each flag has its range; their product must fit too: virtual time is int64 nanoseconds.
  // A frame costs at most its render, its capped updates and a wait of the longest interval
  // (a load profile or trace value is at most 10000 ms, x the trace scale).
  // (--replay: the log's own costs are checked once it is read, in main.)
  const double render_max = !o.replay.empty() ? 0.0 : !o.trace.empty() ? kMaxMs * o.trace_scale : !o.render_load.empty() ? kMaxMs : o.render_ms;
  const double update_max = !o.update_load.empty() ? kMaxMs : o.update_ms;
  const double gpu_max = (o.gpu_time.empty() ? 0.0 : kMaxMs) +  // a frame may wait for one frame's GPU work
                         (o.present_load.empty() ? 0.0 : kMaxMs);
  const double frame_max_ms = render_max + gpu_max + static_cast<double>(o.config.sim.max_steps_per_frame) * update_max +
                              std::max(pacer::to_ms(o.config.adaptive.max_interval), pacer::to_ms(o.config.capped_interval));
  if (static_cast<double>(o.frames) * frame_max_ms > kMaxVirtualMs) {
    char why[256];
    std::snprintf(why, sizeof why,
                  "--frames: %lld frames of up to %.0f ms each could pass the 100-year limit of virtual time; "
                  "lower --frames, --max-steps or the costs",
                  static_cast<long long>(o.frames), frame_max_ms);
    throw UsageError{why};
  }
}

}  // namespace

namespace {

struct Result {
  std::string policy;
  pacer::SimRun run;
  pacer::Summary summary;
  pacer::Nanos interval{0};
};

void print_summary(const Result& r, pacer::Nanos end, std::int64_t frames, std::int64_t warmup) {
  const pacer::Summary& s = r.summary;
  std::printf("policy %s: %lld frames in %.3f ms of virtual time", r.policy.c_str(),
              static_cast<long long>(frames), pacer::to_ms(end));
  if (warmup > 0) std::printf("; metrics over %lld after a %lld-frame warm-up", static_cast<long long>(s.frames),
                              static_cast<long long>(warmup));
  std::printf("\n");
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
  if (const int code = parse(argc, argv, o); code >= 0) return code;
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
  std::optional<pacer::LoadProfile> gpu_time, present_load;
  std::vector<std::string> inputs;
  try {
    // Relative trace paths: as given, then under the repository's traces/ (docs/load-profiles.md).
    // Every trace read is noted as found (as given, or under traces/): no log may be written over one.
    const pacer::TraceOpener find = pacer::trace_file_opener({FP_TRACES_DIR});
    const pacer::TraceOpener open = [&find, &inputs](const std::string& path) {
      auto in = find(path);
      std::error_code ec;
      const bool here = std::filesystem::path(path).is_absolute() || std::filesystem::exists(path, ec);
      inputs.push_back(here ? path : (std::filesystem::path(FP_TRACES_DIR) / path).string());
      return in;
    };
    std::string render_spec = o.render_load;
    if (!o.trace.empty()) render_spec = "trace:" + o.trace + ",scale=" + std::to_string(o.trace_scale) + ",loop";
    if (!render_spec.empty()) load.render = pacer::LoadProfile::parse(render_spec, open);
    if (!o.update_load.empty()) load.update = pacer::LoadProfile::parse(o.update_load, open);
    if (!o.gpu_time.empty()) gpu_time = pacer::LoadProfile::parse(o.gpu_time, open);
    if (!o.present_load.empty()) present_load = pacer::LoadProfile::parse(o.present_load, open);
  } catch (const pacer::LoadSpecError& e) {
    std::fprintf(stderr, "pacer-sim: %s\n", e.what());
    return 2;
  }
  if (!o.log.empty())
    for (const auto& name : policies) {
      const std::string out = log_path(o, name);
      for (const auto& input : inputs)
        if (fpcli::same_file(out, input))
          return fpcli::usage_error("pacer-sim", "--log: '" + fpcli::printable(out) + "' is also a trace it reads ('" +
                                                     fpcli::printable(input) + "')");
    }
  pacer::SimCosts costs = pacer::sim_costs(load);
  double replay_loop_ms = 0;  // --replay: the mean loop time between the log's frames
  if (!o.replay.empty()) {
    std::error_code dir_ec;
    if (std::filesystem::is_directory(o.replay, dir_ec)) {
      std::fprintf(stderr, "pacer-sim: --replay: '%s' is a directory, not a log\n", fpcli::printable(o.replay).c_str());
      return 2;
    }
    errno = 0;
    std::ifstream in{o.replay};
    if (!in) {
      std::fprintf(stderr, "pacer-sim: cannot read --replay log '%s': %s\n", fpcli::printable(o.replay).c_str(),
                   std::strerror(errno != 0 ? errno : ENOENT));
      return 2;
    }
    try {
      const pacer::NativeLog log = pacer::read_native_log(in, o.replay);
      for (const auto& w : log.warnings) std::fprintf(stderr, "pacer-sim: warning: %s\n", w.c_str());
      if (log.records.empty()) {
        std::fprintf(stderr, "pacer-sim: --replay log '%s' has no frames\n", fpcli::printable(o.replay).c_str());
        return 2;
      }
      costs = pacer::replay_costs(log.records, pacer::from_ms(o.update_ms));
      // The loop's own time between frames, for the summary line (frame 0 holds the mean).
      replay_loop_ms = pacer::to_ms(costs.between(0));
      // A log with no display time came from a loop that heard none: the replay hears none.
      if (!o.display_times)
        o.display_times = std::any_of(log.records.begin(), log.records.end(),
                                      [](const pacer::FrameRecord& r) { return r.display.has_value(); });
      if (!o.frames_given) o.frames = static_cast<std::int64_t>(log.records.size());
      // The longest frame the log can make, for the limit on virtual time (see finish()).
      double frame_max_ms = 0;
      for (std::int64_t f = 0; f < static_cast<std::int64_t>(log.records.size()); ++f)
        frame_max_ms = std::max(frame_max_ms, pacer::to_ms(costs.render(f) + costs.present(f) + costs.between(f)) +
                                                  static_cast<double>(o.config.sim.max_steps_per_frame) *
                                                      pacer::to_ms(costs.update(f, 0)));
      frame_max_ms += std::max(pacer::to_ms(o.config.adaptive.max_interval), pacer::to_ms(o.config.capped_interval));
      if (static_cast<double>(o.frames) * frame_max_ms > kMaxVirtualMs) {
        std::fprintf(stderr, "pacer-sim: --frames: %lld frames of up to %.0f ms each (the log's costs) could pass "
                     "the 100-year limit of virtual time; lower --frames\n", static_cast<long long>(o.frames), frame_max_ms);
        return 2;
      }
    } catch (const pacer::LogParseError& e) {
      std::fprintf(stderr, "pacer-sim: %s\n", e.what());
      return 2;
    }
  }
  if (gpu_time) costs.gpu = [g = *gpu_time](std::int64_t f) { return g.at(f); };
  if (present_load) costs.present = [c = *present_load](std::int64_t f) { return c.at(f); };
  const bool has_display = o.display.mode != pacer::PresentMode::none;
  pacer::SimOptions sim;
  sim.display = o.display;
  sim.waiter = o.waiter.value_or(has_display ? pacer::WaiterKind::precise : pacer::WaiterKind::exact);
  sim.seed = o.seed;
  sim.display_times = o.display_times.value_or(true);
  pacer::StatsOptions stats;
  stats.warmup_frames = o.warmup.value_or(has_display ? 60 : 0);
  if (!o.quiet && stats.warmup_frames >= o.frames)  // the summary would be empty
    std::fprintf(stderr, "pacer-sim: warning: the %lld-frame warm-up covers all %lld frames: no metrics (--warmup)\n",
                 static_cast<long long>(stats.warmup_frames), static_cast<long long>(o.frames));

  // Each run streams: records go to the summary and the log as they complete, none is
  // kept, so memory is flat in --frames (the timeline, when asked for, is the exception).
  std::vector<Result> results;
  for (std::size_t i = 0; i < policies.size(); ++i) {
    const std::string& name = policies[i];
    auto pacer = pacer::make_pacer(name, o.config);
    // The log is written in whole rows: a full disk cuts it back to its last whole row
    // and the error names the cause (pacer::RecordFile).
    std::optional<pacer::RecordFile> file;
    std::optional<pacer::NativeLogWriter> writer;
    const std::string path = log_path(o, name);
    pacer::SummaryBuilder summary{stats};
    sim.timeline = o.timeline && i == 0;
    Result r;
    r.policy = name;
    try {
      if (!path.empty()) {
        file.emplace(path, "log");
        writer.emplace(file->stream());
        file->commit();  // the header
      }
      std::int64_t rows = 0;
      r.run = pacer::simulate(*pacer, costs, o.frames, sim, [&](const pacer::FrameRecord& rec) {
        summary.add(rec);
        if (!writer) return;
        writer->write(rec);
        file->commit();
        if (++rows % 1024 == 0) file->flush();
      });
      if (file) file->flush();
    } catch (const std::runtime_error& e) {
      std::fprintf(stderr, "pacer-sim: %s\n", e.what());
      return 1;
    }
    r.summary = summary.result();
    r.interval = pacer->interval();
    results.push_back(std::move(r));
  }

  if (o.timeline) std::printf("%s\n", pacer::format_timeline(results.front().run.timeline).c_str());
  if (o.quiet || o.timeline) return 0;
  if (!o.replay.empty())
    std::printf("replay of %s: its render, present-call and update costs and the loop's own time between frames "
                "(mean %.3f ms); display times %s%s%s\n",
                fpcli::printable(o.replay).c_str(), replay_loop_ms, sim.display_times ? "heard" : "not heard (the log has none)",
                o.sidecar.empty() ? "" : "; settings not given as flags from ", fpcli::printable(o.sidecar).c_str());
  if (o.compare.empty()) {
    print_summary(results.front(), results.front().run.end, o.frames, stats.warmup_frames);
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
