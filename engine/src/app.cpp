#include "engine/app.hpp"

#include <GLFW/glfw3.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <signal.h>
#include <unistd.h>

#include "engine/clock.hpp"
#include "engine/demo_keys.hpp"
#include "engine/log.hpp"
#include "engine/loop.hpp"
#include "engine/overlay.hpp"
#include "engine/status.hpp"
#include "engine/vulkan_target.hpp"
#include "engine/waiter.hpp"
#include "engine/window.hpp"
#include "pacer/decimal.hpp"
#include "pacer/exports.hpp"
#include "pacer/log_writer.hpp"
#include "pacer/policies.hpp"
#include "renderer/renderer.hpp"

namespace engine {

namespace {

/// The signal that asked the run to stop (SIGINT, SIGTERM), 0 while none did. The handler
/// only sets it; the loop's poll hook reads it at the next frame boundary. A second signal
/// while the first is pending ends the process at once (_exit is async-signal-safe).
volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void on_stop_signal(int sig) {
  if (g_stop_signal != 0) _exit(128 + sig);
  g_stop_signal = sig;
}

/// Installs on_stop_signal for SIGINT and SIGTERM for its lifetime; restores the previous
/// handlers after.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: a sleeping waiter wakes at once
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  static int pending() { return static_cast<int>(g_stop_signal); }

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

/// Held by the run_app call in progress: a second call while one runs (on another thread)
/// is refused before it touches the signal handlers or any output (the handlers it would
/// put back, out of order, are the process's; its Renderer would be refused anyway).
class OneRunAtATime {
 public:
  OneRunAtATime() : held_{!running_.exchange(true)} {}
  ~OneRunAtATime() {
    if (held_) running_.store(false);
  }
  OneRunAtATime(const OneRunAtATime&) = delete;
  OneRunAtATime& operator=(const OneRunAtATime&) = delete;
  bool held() const { return held_; }

 private:
  static inline std::atomic<bool> running_{false};
  bool held_;
};

const char* signal_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "signal";
  }
}

/// A usage error found before the run (exit 2).
struct OutputUsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Every output the run will write, checked before anything starts: no two the same file
/// (the sidecar beside the log counts), each one creatable (the log, trace and sidecar are
/// opened by Outputs; the capture is created here and written at its frame).
void check_output_paths(const Options& o, const std::string& meta_path) {
  struct Output {
    const char* flag;
    std::string path;
  };
  const Output outputs[] = {{"--log", o.log_path},
                            {"--trace", o.trace_path},
                            {"the sidecar of --log", meta_path},
                            {"--capture", o.capture_path}};
  auto same_file = [](const std::string& a, const std::string& b) {
    std::error_code ec;
    if (std::filesystem::equivalent(a, b, ec)) return true;
    const auto ca = std::filesystem::weakly_canonical(std::filesystem::absolute(a), ec);
    if (ec) return a == b;
    const auto cb = std::filesystem::weakly_canonical(std::filesystem::absolute(b), ec);
    return ec ? a == b : ca == cb;
  };
  for (std::size_t i = 0; i < std::size(outputs); ++i)
    for (std::size_t j = i + 1; j < std::size(outputs); ++j)
      if (!outputs[i].path.empty() && !outputs[j].path.empty() && same_file(outputs[i].path, outputs[j].path))
        throw OutputUsageError(std::string{outputs[i].flag} + " and " + outputs[j].flag + " name the same file '" +
                         outputs[j].path + "'");
  if (!o.capture_path.empty()) pacer::RecordFile probe{o.capture_path, "capture"};  // creatable, writable
}

/// The pacing log in the chosen format, the Chrome trace, and (at the end) the sidecar JSON.
/// Every file is opened (so checked) at construction; rows are written whole (RecordFile).
class Outputs {
 public:
  Outputs(const Options& o, pacer::RunInfo info, std::string meta_path)
      : info_{std::move(info)}, format_{*pacer::parse_log_format(o.log_format)}, meta_path_{std::move(meta_path)} {
    if (!o.log_path.empty()) log_.emplace(o.log_path, "log");
    if (!o.trace_path.empty()) trace_.emplace(o.trace_path, "trace");
    // Created now so an unwritable sidecar fails before the run; written at the end.
    if (!meta_path_.empty()) meta_.emplace(meta_path_, "run metadata");
  }
  void write(const pacer::FrameRecord& r) {
    // The first record: every output is this run's from now on, the sidecar too (written at
    // the end): a run killed later leaves its own log beside no sidecar, never an earlier
    // run's (which a replay would read as this one's settings).
    if (records_ == 0)
      for (auto* f : {&log_, &trace_, &meta_})
        if (f->has_value()) (*f)->claim();
    open_sinks();
    if (log_sink_) {
      log_sink_->write(r);
      log_->commit();
    }
    if (trace_sink_) {
      trace_sink_->write(r);
      trace_->commit();
    }
    ++records_;
  }
  /// Writes what is committed to every file; the first failure is thrown after all were tried.
  void flush() {
    std::string error;
    for (auto* f : {&log_, &trace_}) {
      if (!f->has_value()) continue;
      try {
        (*f)->flush();
      } catch (const std::exception& e) {
        if (error.empty()) error = e.what();
      }
    }
    if (!error.empty()) throw std::runtime_error(error);
  }
  /// Closes the formats and writes the sidecar: run metadata and the summary. The sidecar
  /// is written even when the log could not be (it says what ran); the first error is then
  /// thrown.
  void finish(const pacer::Summary* summary) {
    if (finished_) return;
    finished_ = true;
    open_sinks();  // a run with no frame still gets its headers
    if (log_sink_) log_sink_->finish();
    if (trace_sink_) trace_sink_->finish();
    if (log_) log_->commit();
    if (trace_) trace_->commit();
    std::string error;
    try {
      flush();
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (meta_) {
      try {
        pacer::write_run_metadata(meta_->stream(), info_, summary);
        meta_->commit();
        meta_->flush();
      } catch (const std::exception& e) {
        if (error.empty()) error = e.what();
      }
    }
    if (!error.empty()) throw std::runtime_error(error);
  }
  pacer::RunInfo& info() { return info_; }
  /// Records written so far (to every output).
  std::int64_t records() const { return records_; }

 private:
  /// Created at the first record, once the device and the present mode are known.
  void open_sinks() {
    if (!log_sink_ && log_) {
      log_sink_ = pacer::make_log_sink(format_, log_->stream(), info_);
      log_->commit();  // the header
    }
    if (!trace_sink_ && trace_) {
      trace_sink_ = std::make_unique<pacer::ChromeTraceWriter>(trace_->stream(), info_);
      trace_->commit();
    }
  }

  std::optional<pacer::RecordFile> log_, trace_, meta_;
  pacer::RunInfo info_;
  pacer::LogFormat format_;
  std::unique_ptr<pacer::FrameLogSink> log_sink_;
  std::unique_ptr<pacer::ChromeTraceWriter> trace_sink_;
  std::string meta_path_;
  std::int64_t records_ = 0;
  bool finished_ = false;
};

renderer::PresentMode present_mode_of(const std::string& name) {
  if (auto m = renderer::parse_present_mode(name)) return *m;
  return renderer::PresentMode::fifo;
}

std::size_t policy_index(std::string_view name) {
  const auto names = pacer::policy_names();
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? 0 : static_cast<std::size_t>(it - names.begin());
}

}  // namespace

int run_app(const Options& o, Scene& scene, std::string_view app_name) {
  const OneRunAtATime one_run;
  if (!one_run.held()) {
    std::fprintf(stderr, "%.*s: engine::run_app is already running in this process (one at a time)\n",
                 static_cast<int>(app_name.size()), app_name.data());
    return 2;  // a usage error found before the run, as an output two flags both name
  }
  // The engine logs through its own logger; spdlog's default logger and pattern stay the host's.
  const std::shared_ptr<spdlog::logger> lg = logger();
  std::optional<Outputs> log;
  std::optional<StatusReporter> status;
  int exit_code = 0;
  const StopSignals signals;  // SIGINT / SIGTERM end the run at the next frame boundary
  try {
    // --adaptive NAME=VALUE: each checked here too (a program may fill Options itself).
    std::string adaptive_text;
    for (const auto& k : o.adaptive) {
      pacer::AdaptiveConfig probe;
      if (!pacer::set_knob(probe, k)) throw std::invalid_argument{"--adaptive: '" + k + "' is not a known NAME=NUMBER"};
      adaptive_text += (adaptive_text.empty() ? "" : " ") + k;
    }
    pacer::RunInfo info;
    info.application = std::string{app_name};
    info.policy = o.policy;
    info.present_mode = o.present_mode;
    info.version = FP_VERSION;
    info.process_id = static_cast<std::uint64_t>(getpid());
    info.config = {{"step_ms", pacer::format_fixed(pacer::to_ms(o.pacing.sim.step), 6)},
                   {"max_steps_per_frame", std::to_string(o.pacing.sim.max_steps_per_frame)},
                   {"initial_interval_ms", pacer::format_fixed(pacer::to_ms(o.pacing.adaptive.initial_interval), 6)},
                   // The pacing flags as asked (before fitting to the display): a replay's settings.
                   {"debt", o.pacing.sim.debt == pacer::DebtPolicy::keep ? "keep" : "discard"},
                   {"pipeline_frames", std::to_string(o.pacing.adaptive.pipeline_frames)},
                   {"shrink", o.pacing.adaptive.shrink ? "true" : "false"},
                   {"even_cadence", o.pacing.adaptive.mixed_cadence_loss == 1 ? "true" : "false"},
                   {"adaptive", adaptive_text},
                   {"load", o.load_description},
                   {"headless", o.headless ? "true" : "false"},
                   {"waiter", o.waiter},
                   {"render_thread", o.render_thread ? "true" : "false"},
                   {"render", o.no_interpolation ? "current" : o.extrapolate ? "extrapolate" : "interpolate"}};
    // run.csv -> run.meta.json (the sidecar beside the log)
    const std::string meta_path =
        o.log_path.empty() ? std::string{} : pacer::run_metadata_path(o.log_path);
    check_output_paths(o, meta_path);
    log.emplace(o, std::move(info), meta_path);
    status.emplace(o.quiet);

    std::unique_ptr<Window> window;
    if (!o.headless) window = std::make_unique<Window>(app_name, o.width, o.height);

    renderer::RendererConfig rc;
    rc.present_mode = present_mode_of(o.present_mode);
    rc.validation = o.validation;
    rc.gpu_index = o.gpu;
    rc.headless = o.headless;
    rc.width = o.width;
    rc.height = o.height;
    rc.fault = o.renderer_fault;
    auto gpu = renderer::Renderer::create(rc, window ? window->handle() : nullptr);
    log->info().device = gpu->device_name();
    // Offscreen there is no swapchain, so no present mode (the renderer's is its unused default).
    const std::string present_mode = gpu->headless() ? "none (headless)" : std::string{renderer::to_string(gpu->present_mode())};
    log->info().present_mode = present_mode;
    lg->info("{}: device '{}', present mode {}, {}x{}, policy {}", app_name, gpu->device_name(), present_mode,
             gpu->extent().width, gpu->extent().height, o.policy);

    SteadyClock clock;
    VulkanTarget target{*gpu, window ? window->handle() : nullptr, clock};
    scene.resize(gpu->extent().width, gpu->extent().height);

    std::unique_ptr<Waiter> waiter;
    if (o.waiter == "sleep") waiter = std::make_unique<SleepWaiter>(clock);
    else waiter = std::make_unique<PreciseWaiter>(clock);

    // Whole refresh periods only make sense where the display latches on vblanks (FIFO).
    pacer::PolicyConfig pacing = o.pacing;
    double refresh_hz = o.refresh_hz;
    const bool vsynced = gpu->present_mode() == renderer::PresentMode::fifo ||
                         gpu->present_mode() == renderer::PresentMode::fifo_relaxed;
    if (refresh_hz < 0) {
      refresh_hz = 0;
      if (window && vsynced)
        if (const GLFWvidmode* mode = glfwGetVideoMode(glfwGetPrimaryMonitor()); mode && mode->refreshRate > 0)
          refresh_hz = mode->refreshRate;
    }
    // The display the policies pace, told to them by the pacer's own fit_to_display (the
    // simulator uses the same mapping): FIFO queues presents, mailbox and immediate (with a
    // refresh rate: immediate:HZ) hold every present to its planned time.
    pacer::DisplaySpec display;
    switch (gpu->present_mode()) {
      case renderer::PresentMode::fifo:
      case renderer::PresentMode::fifo_relaxed: display.mode = pacer::PresentMode::fifo; break;
      case renderer::PresentMode::mailbox: display.mode = pacer::PresentMode::mailbox; break;
      case renderer::PresentMode::immediate: display.mode = pacer::PresentMode::immediate; break;
    }
    if (refresh_hz > 0) display.period = pacer::period_of_hz(refresh_hz);
    // Offscreen with no refresh rate given: no display and no vblank grid, not a FIFO of
    // unknown rate; a frame is done when presented (the simulator's `offscreen`).
    else if (gpu->headless()) display.mode = pacer::PresentMode::offscreen;
    display.images = static_cast<int>(gpu->image_count());
    pacer::fit_to_display(pacing, display);
    for (const auto& k : o.adaptive) pacer::set_knob(pacing.adaptive, k);  // after the fit, as pacer-sim
    // Immediate with no refresh rate, and offscreen: the pacer learns the display from the presents.
    target.report_shown_when_presented((display.mode == pacer::PresentMode::immediate && refresh_hz <= 0) ||
                                       display.mode == pacer::PresentMode::offscreen);
    log->info().config.emplace_back("display", pacer::to_string(display));
    if (refresh_hz > 0)
      lg->info("display {} ({} swapchain images): intervals of whole refresh periods, frames start up to {} "
                   "interval(s) ahead",
                   pacer::to_string(display), display.images, pacing.adaptive.pipeline_frames);

    Loop loop{clock, *waiter, target, scene};
    loop.set_policy(pacer::policy_names()[policy_index(o.policy)], pacing);
    loop.set_interpolate(!o.no_interpolation);
    loop.set_extrapolate(o.extrapolate);
    if (o.render_thread) loop.set_render_thread(true);  // throws for a scene without a RenderState

    // The pacing overlay (docs/overlay.md): --overlay, F3 or O.
    Overlay overlay;
    bool overlay_on = o.overlay;
    auto show_overlay = [&](bool on) {
      overlay_on = on;
      if (on) overlay.build(loop.pacer() ? loop.pacer()->planned_interval() : Nanos{0});
      loop.set_overlay(on ? &overlay.shapes() : nullptr);
    };
    show_overlay(overlay_on);

    Nanos last_flush{0};
    loop.on_record = [&](const pacer::FrameRecord& r) {
      log->write(r);
      status->add(r);
      overlay.add(r);
    };
    std::int64_t presented = 0;
    bool captured = false;
    loop.on_presented = [&](const pacer::FramePlan&) {
      const std::int64_t frame = presented++;
      if (overlay_on) overlay.build(loop.pacer()->planned_interval());  // for the next frame
      // A frame named by --capture-frame, once presented; "the last" is read after the run.
      if (!o.capture_path.empty() && !captured && o.capture_frame >= 0 && frame == o.capture_frame) {
        // The image just presented (with a render thread: once it is, before the next draw).
        loop.when_target_idle([&, frame] {
          captured = gpu->capture_ppm(o.capture_path);
          if (captured) lg->info("captured frame {} to {}", frame, o.capture_path);
        });
      }
      if (window && o.resize_at > 0 && (frame == o.resize_at || frame == 2 * o.resize_at)) {
        const bool shrink = frame == o.resize_at;
        window->set_size(shrink ? o.width / 2 : o.width, shrink ? o.height / 2 : o.height);
        lg->info("resized the window to {}x{} at frame {}", shrink ? o.width / 2 : o.width,
                     shrink ? o.height / 2 : o.height, frame);
      }
      if (clock.now() - last_flush > Nanos{1'000'000'000}) {
        log->flush();
        last_flush = clock.now();
      }
    };
    loop.poll = [&]() {
      if (StopSignals::pending() != 0) return false;
      if (!window) return true;
      for (const InputEvent& e : window->poll()) {
        if (e.kind == InputEvent::Kind::resize) {
          loop.when_target_idle([&] { target.notify_resized(); });
          scene.resize(e.width, e.height);
        }
        // The overlay's keys (F3, O) go with the demo keys (opt-in).
        if (o.demo_keys && e.kind == InputEvent::Kind::key && e.pressed() && (e.key == GLFW_KEY_F3 || e.key == GLFW_KEY_O)) {
          show_overlay(!overlay_on);
          lg->info("overlay {}", overlay_on ? "on" : "off");
          continue;
        }
        // Demo keys (opt-in) are the engine's; every other event is the scene's.
        const DemoKey k = o.demo_keys ? demo_key(e, loop, scene) : DemoKey::none;
        if (k == DemoKey::quit) return false;
        if (k == DemoKey::none) loop.push_input(e);
      }
      return !window->should_close();
    };

    RunLimits limits;
    limits.max_frames = o.frames;
    if (o.duration_s > 0) limits.max_duration = pacer::from_ms(o.duration_s * 1000.0);
    const RunResult result = loop.run(limits);
    // No --capture-frame: the last frame drawn, read once the run has ended (the target is
    // idle then); with --duration nobody knows before which frame that is.
    if (!o.capture_path.empty() && o.capture_frame < 0 && presented > 0 && StopSignals::pending() == 0) {
      captured = gpu->capture_ppm(o.capture_path);
      if (captured) lg->info("captured frame {} to {}", presented - 1, o.capture_path);
    }
    const pacer::Summary s = status->summarize_run(std::min<std::int64_t>(30, result.frames / 10));
    const WaitStats& ws = waiter->stats();
    log->info().measured = {{"waiter_waits", static_cast<double>(ws.waits)},
                            {"waiter_wait_ms", pacer::to_ms(ws.total)},
                            {"waiter_sleep_ms", pacer::to_ms(ws.sleep)},
                            {"waiter_spin_ms", pacer::to_ms(ws.spin)},
                            {"waiter_late_max_ms", pacer::to_ms(ws.max_late)}};
    log->finish(&s);
    lg->info("summary: {} frames in {:.2f} s, {}", result.frames, pacer::to_ms(result.duration) / 1000.0,
                 StatusReporter::status_line(s, loop.pacer() ? loop.pacer()->planned_interval() : Nanos{0}));
    lg->info("summary: p50 |anim err| {:.3f} ms, lateness p50 {:.3f} ms p99 {:.3f} ms, stutter {:.2f}% of time, "
                 "busy {:.1f}%, waiting {:.1f}%",
                 s.anim_error_p50_ms, s.lateness_p50_ms, s.lateness_p99_ms, s.stutter_time_pct, 100 * s.busy_share,
                 100 * s.wait_share);
    const WaitStats& w = waiter->stats();
    if (w.total > Nanos::zero())
      lg->info("waiter: {} waits, {:.1f} ms waited, {:.2f}% of it spinning, mean wake {:.1f} us late, max {:.1f} us",
                   w.waits, pacer::to_ms(w.total), 100.0 * pacer::to_ms(w.spin) / pacer::to_ms(w.total),
                   w.waits > 0 ? pacer::to_ms(w.late) * 1000.0 / static_cast<double>(w.waits) : 0.0,
                   pacer::to_ms(w.max_late) * 1000.0);
    if (const int sig = StopSignals::pending(); sig != 0) {
      // Everything up to the last whole frame is logged and the sidecar written above.
      std::fprintf(stderr, "%.*s: interrupted (%s): %lld frames logged\n", static_cast<int>(app_name.size()),
                   app_name.data(), signal_name(sig), static_cast<long long>(log->records()));
      return 128 + sig;
    }
    if (!o.capture_path.empty() && !captured) {
      // Nothing written: the check before the run left no file of its own (pacer::RecordFile),
      // and an earlier file of that name stays as it was.
      const std::int64_t want = o.capture_frame >= 0 ? o.capture_frame : presented - 1;
      // One line on stderr, as every output's failure: why nothing (or not that frame) was written.
      const std::string why =
          presented == 0 || want >= presented
              ? fmt::format("--capture: the run ended after {} frames{}; nothing was written to '{}'", presented,
                            presented == 0 ? "" : fmt::format(", before frame {}", want), o.capture_path)
              : fmt::format("--capture: frame {} was not captured: {}", want,
                            gpu->capture_error().empty() ? "unknown reason" : gpu->capture_error());
      std::fprintf(stderr, "%.*s: %s\n", static_cast<int>(app_name.size()), app_name.data(), why.c_str());
      exit_code = 1;
    }
    if (o.validation) {
      lg->info("validation: {} messages, {} errors", gpu->validation_messages(), gpu->validation_errors());
      if (gpu->validation_errors() > 0) {
        lg->error("validation reported {} errors", gpu->validation_errors());
        exit_code = 1;
      }
    }
  } catch (const OutputUsageError& e) {
    std::fprintf(stderr, "%.*s: %s\n", static_cast<int>(app_name.size()), app_name.data(), e.what());
    return 2;
  } catch (const std::exception& e) {
    // A run that failed before its first frame (no display, no device) writes nothing: an
    // earlier log, trace and sidecar of the same names stay as they were (pacer::RecordFile).
    if (log && log->records() > 0) {
      try {
        log->finish(nullptr);
      } catch (const std::exception&) {
      }
    }
    std::fprintf(stderr, "%.*s: %s\n", static_cast<int>(app_name.size()), app_name.data(), e.what());
    return 1;
  }
  return exit_code;
}

}  // namespace engine
