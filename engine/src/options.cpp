#include "engine/options.hpp"

#include <cstdio>
#include <cstdlib>

namespace engine {

namespace {

double to_double(const std::string& flag, const char* text, double min, double max) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(v >= min && v <= max))
    throw UsageError{flag + ": expected a number in [" + std::to_string(min) + ", " + std::to_string(max) + "], got '" +
                     text + "'"};
  return v;
}

long long to_int(const std::string& flag, const char* text, long long min, long long max) {
  char* end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || v < min || v > max)
    throw UsageError{flag + ": expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) +
                     "], got '" + text + "'"};
  return v;
}

std::string one_of(const std::string& flag, const char* text, std::initializer_list<std::string_view> choices) {
  std::string list;
  for (auto c : choices) {
    if (c == text) return text;
    list += (list.empty() ? "" : "|") + std::string(c);
  }
  throw UsageError{flag + ": expected " + list + ", got '" + text + "'"};
}

}  // namespace

Cli::Cli(std::string program, std::string description)
    : program_{std::move(program)}, description_{std::move(description)} {}

void Cli::add_int(std::string flag, std::string metavar, std::string help, int& target, int min, int max) {
  const std::string name = flag;
  add({std::move(flag), std::move(metavar), std::move(help),
       [&target, name, min, max](const char* v) { target = static_cast<int>(to_int(name, v, min, max)); }, true});
}
void Cli::add_double(std::string flag, std::string metavar, std::string help, double& target, double min, double max) {
  const std::string name = flag;
  add({std::move(flag), std::move(metavar), std::move(help),
       [&target, name, min, max](const char* v) { target = to_double(name, v, min, max); }, true});
}
void Cli::add_string(std::string flag, std::string metavar, std::string help, std::string& target) {
  add({std::move(flag), std::move(metavar), std::move(help), [&target](const char* v) { target = v; }, true});
}
void Cli::add_bool(std::string flag, std::string help, bool& target) {
  add({std::move(flag), "", std::move(help), [&target](const char*) { target = true; }, false});
}

void Cli::add_common(Options& o) {
  auto ms = [](const std::string& flag, const char* v, double min, double max) {
    return pacer::from_ms(to_double(flag, v, min, max));
  };
  add({"--frames", "N", "render N frames, then exit", [&o](const char* v) { o.frames = to_int("--frames", v, 1, 1'000'000'000); }, true});
  add({"--duration", "SECONDS", "run this long, then exit", [&o](const char* v) { o.duration_s = to_double("--duration", v, 0.001, 1e6); }, true});
  std::string policies;
  for (auto n : pacer::policy_names()) policies += (policies.empty() ? "" : "|") + std::string(n);
  add({"--policy", "NAME", policies,
       [&o, policies](const char* v) {
         for (auto n : pacer::policy_names())
           if (n == v) {
             o.policy = v;
             return;
           }
         throw UsageError{"--policy: expected " + policies + ", got '" + std::string(v) + "'"};
       },
       true});
  add({"--present-mode", "MODE", "fifo|fifo-relaxed|mailbox|immediate",
       [&o](const char* v) { o.present_mode = one_of("--present-mode", v, {"fifo", "fifo-relaxed", "mailbox", "immediate"}); }, true});
  add({"--log", "FILE", "write the pacing log", [&o](const char* v) { o.log_path = v; }, true});
  add({"--log-format", "FMT", "native|presentmon|mangohud",
       [&o](const char* v) { o.log_format = one_of("--log-format", v, {"native", "presentmon", "mangohud"}); }, true});
  add({"--trace", "FILE.json", "write a Chrome/Perfetto trace", [&o](const char* v) { o.trace_path = v; }, true});
  add({"--headless", "", "render offscreen: no window, no swapchain", [&o](const char*) { o.headless = true; }, false});
  add({"--validation", "", "enable the Khronos validation layer", [&o](const char*) { o.validation = true; }, false});
  add({"--seed", "N", "seed for all randomness", [&o](const char* v) { o.seed = static_cast<std::uint64_t>(to_int("--seed", v, 0, 1LL << 62)); }, true});
  add({"--gpu", "N", "use physical device N", [&o](const char* v) { o.gpu = static_cast<int>(to_int("--gpu", v, 0, 64)); }, true});
  add({"--size", "WxH", "window / offscreen size",
       [&o](const char* v) {
         unsigned w = 0, h = 0;
         char tail = 0;
         if (std::sscanf(v, "%ux%u%c", &w, &h, &tail) != 2 || w < 16 || h < 16 || w > 8192 || h > 8192)
           throw UsageError{"--size: expected WxH (16..8192), got '" + std::string(v) + "'"};
         o.width = w;
         o.height = h;
       },
       true});
  add({"--capture", "FILE.ppm", "save a rendered frame as a PPM image", [&o](const char* v) { o.capture_path = v; }, true});
  add({"--capture-frame", "N", "which frame --capture saves (default: the last)",
       [&o](const char* v) { o.capture_frame = to_int("--capture-frame", v, 0, 1'000'000'000); }, true});
  add({"--no-interpolation", "", "render the current state (Space toggles)", [&o](const char*) { o.no_interpolation = true; }, false});
  add({"--quiet", "", "no status line each second", [&o](const char*) { o.quiet = true; }, false});
  add({"--waiter", "KIND", "precise (sleep + spin, default) | sleep",
       [&o](const char* v) { o.waiter = one_of("--waiter", v, {"precise", "sleep"}); }, true});
  add({"--refresh-hz", "HZ", "display refresh for whole-period intervals (0: off; default: the monitor's, fifo only)",
       [&o](const char* v) { o.refresh_hz = to_double("--refresh-hz", v, 0, 1000); }, true});
  add({"--resize-at", "N", "resize the window to half size at frame N and back at 2N (tests)",
       [&o](const char* v) { o.resize_at = to_int("--resize-at", v, 1, 1'000'000'000); }, true});
  add({"--step-ms", "MS", "fixed simulation step", [&o, ms](const char* v) { o.pacing.sim.step = ms("--step-ms", v, 0.01, 1000); }, true});
  add({"--interval-ms", "MS", "initial render interval (adaptive) / target (accumulator-capped)",
       [&o, ms](const char* v) {
         o.pacing.adaptive.initial_interval = ms("--interval-ms", v, 0.1, 1000);
         o.pacing.capped_interval = o.pacing.adaptive.initial_interval;
       },
       true});
  add({"--max-steps", "N", "updates per frame at most", [&o](const char* v) { o.pacing.sim.max_steps_per_frame = static_cast<int>(to_int("--max-steps", v, 1, 10'000)); }, true});
  add({"--debt", "POLICY", "discard|keep: time beyond the step cap",
       [&o](const char* v) {
         o.pacing.sim.debt = one_of("--debt", v, {"discard", "keep"}) == "keep" ? pacer::DebtPolicy::keep : pacer::DebtPolicy::discard;
       },
       true});
  add({"--no-shrink", "", "adaptive: hold the interval", [&o](const char*) { o.pacing.adaptive.shrink = false; }, false});
  add({"--pipeline-frames", "N", "adaptive, fifo: frames start up to N intervals ahead of display (default 2; 1: least latency)",
       [&o](const char* v) { o.pacing.adaptive.pipeline_frames = static_cast<int>(to_int("--pipeline-frames", v, 1, 8)); }, true});
  add({"--even-cadence", "", "adaptive: whole refresh periods always, never the mixed cadence",
       [&o](const char*) { o.pacing.adaptive.mixed_cadence_loss = 1; }, false});
}

std::string Cli::usage() const {
  std::string out = "usage: " + program_ + " [options]\n" + description_ + "\n\n";
  for (const auto& f : flags_) {
    std::string left = "  " + f.name + (f.takes_value ? " " + f.metavar : "");
    if (left.size() < 26) left.resize(26, ' ');
    else left += "  ";
    out += left + f.help + "\n";
  }
  out += "  --help, --version\n";
  return out;
}

int Cli::parse(int argc, char** argv, Options& out) {
  add_common(out);
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string_view a = argv[i];
      if (a == "--help" || a == "-h") {
        std::fputs(usage().c_str(), stdout);
        return 0;
      }
      if (a == "--version") {
        std::printf("%s %s\n", program_.c_str(), FP_VERSION);
        return 0;
      }
      const Flag* match = nullptr;
      for (const auto& f : flags_)
        if (f.name == a) match = &f;
      if (!match) throw UsageError{"unknown option '" + std::string(a) + "' (see --help)"};
      if (match->takes_value) {
        if (i + 1 >= argc) throw UsageError{match->name + " needs a value"};
        match->set(argv[++i]);
      } else {
        match->set(nullptr);
      }
    }
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s: %s\n", program_.c_str(), e.message.c_str());
    return 2;
  }
  return -1;
}

}  // namespace engine
