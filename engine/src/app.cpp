#include "engine/app.hpp"

#include <GLFW/glfw3.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "engine/clock.hpp"
#include "engine/loop.hpp"
#include "engine/status.hpp"
#include "engine/vulkan_target.hpp"
#include "engine/waiter.hpp"
#include "pacer/log_writer.hpp"
#include "pacer/policies.hpp"
#include "renderer/renderer.hpp"

namespace engine {

namespace {

/// The window and its input; GLFW is initialised for its lifetime.
class Window {
 public:
  Window(const Options& o, std::string_view title) {
    glfwSetErrorCallback([](int code, const char* text) { spdlog::debug("glfw error {}: {}", code, text); });
    if (glfwInit() != GLFW_TRUE) throw std::runtime_error("no display: GLFW could not initialise (is DISPLAY set? try --headless)");
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    const std::string t{title};
    window_ = glfwCreateWindow(static_cast<int>(o.width), static_cast<int>(o.height), t.c_str(), nullptr, nullptr);
    if (!window_) {
      glfwTerminate();
      throw std::runtime_error("no display: could not create a window");
    }
    glfwSetWindowUserPointer(window_, this);
    glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int) {
      if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
      static_cast<Window*>(glfwGetWindowUserPointer(w))->keys_.push_back(key);
    });
    glfwSetFramebufferSizeCallback(window_, [](GLFWwindow* w, int, int) {
      static_cast<Window*>(glfwGetWindowUserPointer(w))->resized_ = true;
    });
  }
  ~Window() {
    glfwDestroyWindow(window_);
    glfwTerminate();
  }
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  GLFWwindow* handle() const { return window_; }
  bool should_close() const { return glfwWindowShouldClose(window_) == GLFW_TRUE; }
  /// Keys pressed since the last call.
  std::vector<int> take_keys() { return std::exchange(keys_, {}); }
  bool take_resized() { return std::exchange(resized_, false); }

 private:
  GLFWwindow* window_ = nullptr;
  std::vector<int> keys_;
  bool resized_ = false;
};

/// Writes the pacing log as records complete; flushed each second and at exit.
class LogFile {
 public:
  explicit LogFile(const std::string& path) : path_{path} {
    if (path.empty()) return;
    file_.open(path, std::ios::out | std::ios::trunc);
    if (!file_) throw std::runtime_error("cannot write log '" + path + "'");
    writer_.emplace(file_);
  }
  void write(const pacer::FrameRecord& r) {
    if (!writer_) return;
    writer_->write(r);
    if (++since_flush_ >= 64) flush();
  }
  void flush() {
    if (!writer_) return;
    file_.flush();
    since_flush_ = 0;
    if (!file_) throw std::runtime_error("writing log '" + path_ + "' failed");
  }

 private:
  std::string path_;
  std::ofstream file_;
  std::optional<pacer::NativeLogWriter> writer_;
  int since_flush_ = 0;
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
  spdlog::set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
  std::optional<LogFile> log;
  std::optional<StatusReporter> status;
  int exit_code = 0;
  try {
    log.emplace(o.log_path);
    status.emplace(o.quiet);

    std::unique_ptr<Window> window;
    if (!o.headless) window = std::make_unique<Window>(o, app_name);

    renderer::RendererConfig rc;
    rc.present_mode = present_mode_of(o.present_mode);
    rc.validation = o.validation;
    rc.gpu_index = o.gpu;
    rc.headless = o.headless;
    rc.width = o.width;
    rc.height = o.height;
    auto gpu = renderer::Renderer::create(rc, window ? window->handle() : nullptr);
    spdlog::info("{}: device '{}', present mode {}, {}x{}, policy {}", app_name, gpu->device_name(),
                 renderer::to_string(gpu->present_mode()), gpu->extent().width, gpu->extent().height, o.policy);

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
    if (refresh_hz > 0) {
      pacing.adaptive.refresh_period = pacer::from_ms(1000.0 / refresh_hz);
      spdlog::info("display refresh {:.2f} Hz: intervals of whole refresh periods", refresh_hz);
    }

    Loop loop{clock, *waiter, target, scene};
    std::size_t policy = policy_index(o.policy);
    loop.set_pacer(pacer::make_pacer(pacer::policy_names()[policy], pacing));
    loop.set_interpolate(!o.no_interpolation);

    Nanos last_flush{0};
    loop.on_record = [&](const pacer::FrameRecord& r) {
      log->write(r);
      status->add(r);
    };
    std::int64_t presented = 0;
    bool captured = false;
    loop.on_presented = [&](const pacer::FramePlan&) {
      const std::int64_t frame = presented++;
      const std::int64_t want = o.capture_frame >= 0 ? o.capture_frame : (o.frames > 0 ? o.frames - 1 : -1);
      if (!o.capture_path.empty() && !captured && frame == want) {
        captured = gpu->capture_ppm(o.capture_path);
        if (captured) spdlog::info("captured frame {} to {}", frame, o.capture_path);
      }
      if (window && o.resize_at > 0 && (frame == o.resize_at || frame == 2 * o.resize_at)) {
        const bool shrink = frame == o.resize_at;
        glfwSetWindowSize(window->handle(), static_cast<int>(shrink ? o.width / 2 : o.width),
                          static_cast<int>(shrink ? o.height / 2 : o.height));
        spdlog::info("resized the window to {}x{} at frame {}", shrink ? o.width / 2 : o.width,
                     shrink ? o.height / 2 : o.height, frame);
      }
      if (clock.now() - last_flush > Nanos{1'000'000'000}) {
        log->flush();
        last_flush = clock.now();
      }
    };
    loop.poll = [&]() {
      if (!window) return true;
      glfwPollEvents();
      if (window->take_resized()) {
        target.notify_resized();
        scene.resize(gpu->extent().width, gpu->extent().height);
      }
      for (int key : window->take_keys()) {
        switch (key) {
          case GLFW_KEY_ESCAPE: return false;
          case GLFW_KEY_SPACE:
            loop.set_interpolate(!loop.interpolate());
            spdlog::info("interpolation {}", loop.interpolate() ? "on" : "off");
            break;
          case GLFW_KEY_P:
            policy = (policy + 1) % pacer::policy_names().size();
            loop.set_pacer(pacer::make_pacer(pacer::policy_names()[policy], pacing));
            spdlog::info("policy {}", pacer::policy_names()[policy]);
            break;
          case GLFW_KEY_EQUAL:
          case GLFW_KEY_KP_ADD:
            spdlog::info("load {}", scene.adjust_load(+1));
            break;
          case GLFW_KEY_MINUS:
          case GLFW_KEY_KP_SUBTRACT:
            spdlog::info("load {}", scene.adjust_load(-1));
            break;
          default: break;
        }
      }
      return !window->should_close();
    };

    RunLimits limits;
    limits.max_frames = o.frames;
    if (o.duration_s > 0) limits.max_duration = pacer::from_ms(o.duration_s * 1000.0);
    const RunResult result = loop.run(limits);
    log->flush();

    const pacer::Summary s = status->summarize_run(std::min<std::int64_t>(30, result.frames / 10));
    spdlog::info("summary: {} frames in {:.2f} s, {}", result.frames, pacer::to_ms(result.duration) / 1000.0,
                 StatusReporter::status_line(s, loop.pacer()->interval()));
    spdlog::info("summary: p50 |anim err| {:.3f} ms, lateness p50 {:.3f} ms p99 {:.3f} ms, stutter {:.2f}% of time, "
                 "busy {:.1f}%, waiting {:.1f}%",
                 s.anim_error_p50_ms, s.lateness_p50_ms, s.lateness_p99_ms, s.stutter_time_pct, 100 * s.busy_share,
                 100 * s.wait_share);
    const WaitStats& w = waiter->stats();
    if (w.total > Nanos::zero())
      spdlog::info("waiter: {} waits, {:.1f} ms waited, {:.2f}% of it spinning, mean wake {:.1f} us late, max {:.1f} us",
                   w.waits, pacer::to_ms(w.total), 100.0 * pacer::to_ms(w.spin) / pacer::to_ms(w.total),
                   w.waits > 0 ? pacer::to_ms(w.late) * 1000.0 / static_cast<double>(w.waits) : 0.0,
                   pacer::to_ms(w.max_late) * 1000.0);
    if (!o.capture_path.empty() && !captured) {
      spdlog::error("capture: frame {} was not captured to '{}'", o.capture_frame, o.capture_path);
      exit_code = 1;
    }
    if (o.validation) {
      spdlog::info("validation: {} messages, {} errors", gpu->validation_messages(), gpu->validation_errors());
      if (gpu->validation_errors() > 0) {
        spdlog::error("validation reported {} errors", gpu->validation_errors());
        exit_code = 1;
      }
    }
  } catch (const std::exception& e) {
    if (log) {
      try {
        log->flush();
      } catch (const std::exception&) {
      }
    }
    std::fprintf(stderr, "%.*s: %s\n", static_cast<int>(app_name.size()), app_name.data(), e.what());
    return 1;
  }
  return exit_code;
}

}  // namespace engine
