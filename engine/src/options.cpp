// The samples' flag table: CLI11 with engine/cli.hpp's conventions (docs/reliability.md).
#include "engine/options.hpp"

#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "engine/cli.hpp"

namespace engine {

namespace {

/// Frame counts: at most 10 million (the samples keep a record per frame in memory).
constexpr long long kMaxFrames = 10'000'000;
constexpr unsigned kMinSize = 16, kMaxSize = 16384;

/// "WxH" with 16 <= W, H <= 16384; the reason it is not, or "".
std::string check_size(const std::string& text, std::uint32_t& w, std::uint32_t& h) {
  const std::string shown = fpcli::printable(text);
  const auto x = text.find('x');
  const std::string range = " (each " + std::to_string(kMinSize) + " to " + std::to_string(kMaxSize) + ")";
  if (x == std::string::npos) return "expected WxH" + range + ", got '" + shown + "'";
  long long v[2] = {0, 0};
  const std::string parts[2] = {text.substr(0, x), text.substr(x + 1)};
  for (int i = 0; i < 2; ++i) {
    const std::string& p = parts[i];
    if (p.empty() || p.find_first_not_of("0123456789") != std::string::npos)
      return "expected WxH" + range + ", got '" + shown + "'";
    if (p.size() > 6) return shown + " is out of range" + range;
    v[i] = std::stoll(p);
    if (v[i] < kMinSize || v[i] > kMaxSize) return shown + " is out of range" + range;
  }
  w = static_cast<std::uint32_t>(v[0]);
  h = static_cast<std::uint32_t>(v[1]);
  return {};
}

}  // namespace

struct Cli::Impl {
  CLI::App app;
  Impl(const std::string& program, const std::string& description) : app{description, program} {}
};

Cli::Cli(std::string program, std::string description)
    : program_{std::move(program)}, impl_{std::make_unique<Impl>(program_, description)} {
  fpcli::setup(impl_->app, FP_VERSION);
}
Cli::~Cli() = default;

void Cli::add_int(std::string flag, std::string metavar, std::string help, int& target, int min, int max) {
  impl_->app.add_option(flag, target, help)->type_name(metavar)->transform(fpcli::whole(min, max));
}
void Cli::add_double(std::string flag, std::string metavar, std::string help, double& target, double min, double max) {
  impl_->app.add_option(flag, target, help)->type_name(metavar)->transform(fpcli::real(min, max));
}
void Cli::add_string(std::string flag, std::string metavar, std::string help, std::string& target) {
  impl_->app.add_option(flag, target, help)->type_name(metavar);
}
void Cli::add_bool(std::string flag, std::string help, bool& target) { impl_->app.add_flag(flag, target, help); }

/// A time for the help text: "40", "16.6667" (ms).
static std::string ms_text(pacer::Nanos t) { return pacer::format_general(pacer::to_ms(t), 6); }

void Cli::add_common(Options& o) {
  CLI::App& app = impl_->app;
  auto ms = [&app](const char* flag, const std::string& help, double lo, double hi, std::function<void(double)> set) {
    app.add_option_function<double>(flag, std::move(set), help)->type_name("MS")->transform(fpcli::real(lo, hi));
  };
  app.add_option("--frames", o.frames, "render N frames, then exit")->type_name("N")->transform(fpcli::whole(1, kMaxFrames));
  app.add_option("--duration", o.duration_s, "run this long, then exit")->type_name("SECONDS")->transform(fpcli::real(0.001, 1e6));
  std::vector<std::string> policies;
  for (auto n : pacer::policy_names()) policies.emplace_back(n);
  app.add_option("--policy", o.policy, "pacing policy (default " + o.policy + ")")->type_name("NAME")->check(fpcli::one_of(policies));
  app.add_option("--present-mode", o.present_mode, "present mode (default " + o.present_mode + "; fifo where the one asked for is missing)")->type_name("MODE")
      ->check(fpcli::one_of({"fifo", "fifo-relaxed", "mailbox", "immediate"}));
  app.add_option("--log", o.log_path, "write the pacing log")->type_name("FILE")->check(fpcli::file_name());
  app.add_option("--log-format", o.log_format, "log format (default " + o.log_format + ")")->type_name("FMT")->check(fpcli::one_of({"native", "presentmon", "mangohud"}));
  app.add_option("--trace", o.trace_path, "write a Chrome/Perfetto trace")->type_name("FILE.json")->check(fpcli::file_name());
  app.add_flag("--headless", o.headless, "render offscreen: no window, no swapchain");
  app.add_flag("--validation", o.validation, "enable the Khronos validation layer");
  app.add_option("--seed", o.seed, "seed for all randomness (default " + std::to_string(o.seed) + ")")->type_name("N")->transform(fpcli::whole(0, fpcli::max_seed));
  app.add_option("--gpu", o.gpu, "use physical device N")->type_name("N")->transform(fpcli::whole(0, 64));
  app.add_option_function<std::string>(
         "--size", [&o](const std::string& v) { check_size(v, o.width, o.height); }, "window / offscreen size (default " + std::to_string(o.width) + "x" + std::to_string(o.height) + ")")
      ->type_name("WxH")
      ->check(CLI::Validator(
          [](std::string& v) {
            std::uint32_t w = 0, h = 0;
            return check_size(v, w, h);
          },
          "16..16384 each"));
  app.add_option("--capture", o.capture_path, "save a rendered frame as a PPM image")->type_name("FILE.ppm")->check(fpcli::file_name());
  app.add_option("--capture-frame", o.capture_frame, "which frame --capture saves (default: the last one drawn, also with --duration)")
      ->type_name("N")->transform(fpcli::whole(0, kMaxFrames));
  app.add_flag("--no-interpolation", o.no_interpolation, "render the current state (Space toggles)");
  app.add_flag("--extrapolate", o.extrapolate, "render the newest state projected to the frame's world time (X toggles)");
  app.add_flag("--render-thread", o.render_thread, "draw and present on a render thread while the updates run");
  app.add_flag("--quiet", o.quiet, "no status line each second");
  app.add_flag("--overlay", o.overlay, "show the pacing overlay (frame-time graph, numbers; F3 or O toggles)");
  app.add_option("--waiter", o.waiter, "precise (sleep + spin, default) | sleep")->type_name("KIND")->check(fpcli::one_of({"precise", "sleep"}));
  app.add_option("--refresh-hz", o.refresh_hz, "display refresh for whole-period intervals (0: off; default: the monitor's, fifo only)")
      ->type_name("HZ")->transform(fpcli::real(0, 1000));
  app.add_option("--resize-at", o.resize_at, "resize the window to half size at frame N and back at 2N (tests)")
      ->type_name("N")->transform(fpcli::whole(1, kMaxFrames));
  ms("--step-ms", "fixed simulation step (default " + ms_text(o.pacing.sim.step) + ")", 0.01, 1000, [&o](double v) { o.pacing.sim.step = pacer::from_ms(v); });
  ms("--interval-ms", "initial render interval (adaptive) / target (accumulator-capped) (default " + ms_text(o.pacing.adaptive.initial_interval) + ")", 0.1, 1000, [&o](double v) {
    o.pacing.adaptive.initial_interval = pacer::from_ms(v);
    o.pacing.capped_interval = o.pacing.adaptive.initial_interval;
  });
  fpcli::add_pacing_flags(app, o.pacing);
  fpcli::add_adaptive_flag(app, o.adaptive);
}

std::string Cli::usage() const { return impl_->app.help(); }

bool Cli::given(const std::string& flag) const {
  const CLI::Option* option = impl_->app.get_option_no_throw(flag);
  return option != nullptr && option->count() > 0;
}

int Cli::usage_error(const std::string& why) const { return fpcli::usage_error(program_, why); }

int Cli::parse(int argc, char** argv, Options& out) {
  add_common(out);
  if (const int code = fpcli::parse(impl_->app, argc, argv); code >= 0) return code;
  // Two outputs into one file would interleave a CSV and a JSON document.
  const std::pair<const char*, const std::string*> files[] = {
      {"--log", &out.log_path}, {"--trace", &out.trace_path}, {"--capture", &out.capture_path}};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = i + 1; j < 3; ++j)
      if (!files[i].second->empty() && *files[i].second == *files[j].second)
        return fpcli::usage_error(program_, std::string(files[j].first) + ": '" + fpcli::printable(*files[j].second) +
                                                "' is also the " + files[i].first + " file");
  // --adaptive: each a known NAME=NUMBER, together a config the policy takes (the display's
  // fit, later, only raises the frame-rate cap and lowers the queue depth).
  if (!out.adaptive.empty()) {
    pacer::AdaptiveConfig probe = out.pacing.adaptive;
    for (const auto& k : out.adaptive) {
      std::pair<std::string, double> knob;
      if (const std::string why = fpcli::parse_knob(k, knob); !why.empty()) return fpcli::usage_error(program_, "--adaptive: " + why);
      pacer::set_knob(probe, knob.first, knob.second);
    }
    try {
      pacer::validate(probe);
    } catch (const std::invalid_argument& e) {
      return fpcli::usage_error(program_, std::string{"--adaptive: "} + e.what());
    }
  }
  // A refresh rate is 0 (off) or one a monitor can have.
  if (out.refresh_hz > 0 && out.refresh_hz < 1)
    return fpcli::usage_error(program_, "--refresh-hz: " + fpcli::num_text(out.refresh_hz) +
                                            " is not a refresh rate (0: off, or 1 to 1000)");
  // Flags that would be ignored without a word.
  if (given("--capture-frame") && out.capture_path.empty())
    return fpcli::usage_error(program_, "--capture-frame: needs --capture FILE (the file it is saved to)");
  if (out.headless && given("--present-mode"))
    return fpcli::usage_error(program_, "--present-mode: a --headless run has no swapchain (drop one of them)");
  if (out.headless && given("--resize-at"))
    return fpcli::usage_error(program_, "--resize-at: a --headless run has no window to resize (drop one of them)");
  // A frame the run is known never to reach (--frames N renders frames 0 to N - 1).
  if (out.frames > 0 && out.capture_frame >= out.frames)
    return fpcli::usage_error(program_, "--capture-frame: " + std::to_string(out.capture_frame) +
                                            " is past the run's last frame (--frames " + std::to_string(out.frames) +
                                            ": frames 0 to " + std::to_string(out.frames - 1) + ")");
  return -1;
}

}  // namespace engine
