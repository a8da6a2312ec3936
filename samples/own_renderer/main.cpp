// own_renderer: bring your own renderer. A game with its own small Vulkan renderer
// (gpu.hpp: its device, swapchain, pipeline and vertex buffers; not the engine's renderer)
// and its own draw data (coloured rectangles and a triangle) runs under engine::Loop,
// driven one frame per call from the game's own loop. The game renders and presents; the
// loop says when, and which world time (engine::FrameInfo).
//
//   own_renderer --frames 120 --validation        # exit 0 with no validation message
//   own_renderer --policy swappy --time-scale 0.5 --pause-at 60 --log run.csv
//
// Keys (the game's own): Space pauses / resumes, 1 / 2 / 3 set the time scale to 0.5 / 1 / 2,
// Up / Down double / halve the fixed step, a click adds a box, Esc quits. The engine's demo
// keys are off unless --demo-keys (they take precedence over the game's).
#include <GLFW/glfw3.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/cli.hpp"
#include "engine/clock.hpp"
#include "engine/demo_keys.hpp"
#include "engine/log.hpp"
#include "engine/loop.hpp"
#include "engine/waiter.hpp"
#include "engine/window.hpp"
#include "gpu.hpp"
#include "pacer/interpolation.hpp"
#include "pacer/log_writer.hpp"
#include "pacer/policies.hpp"

namespace {

using pacer::Nanos;

double seconds(Nanos d) { return static_cast<double>(d.count()) / 1e9; }

own::Vertex vertex(double x, double y, std::uint32_t rgba) {
  own::Vertex v;
  v.x = static_cast<float>(x);
  v.y = static_cast<float>(y);
  for (int i = 0; i < 4; ++i) v.rgba[i] = static_cast<std::uint8_t>(rgba >> (24 - 8 * i));
  return v;
}

/// The game: boxes moving in the fixed update (interpolated when drawn), a spinner and a
/// frame-rate bar driven by the variable update and the loop's rolling stats.
class Game final : public engine::Scene {
 public:
  void attached(engine::Loop& loop) override { loop_ = &loop; }
  void resize(std::uint32_t w, std::uint32_t h) override {
    width_ = w;
    height_ = h;
  }

  void fixed_update(Nanos step) override {  // the only place the world changes
    const double dt = seconds(step);
    for (Box& b : boxes_) {
      pacer::Vec2 p = b.position.current() + b.velocity * dt;
      if (p.x < 0 || p.x + b.size > width_) {
        b.velocity.x = -b.velocity.x;
        p.x = std::clamp(p.x, 0.0, std::max(0.0, width_ - b.size));
      }
      b.position.set(p);
    }
  }

  void update(Nanos dt, const engine::FrameInfo& frame) override {
    spin_ += 3.0 * seconds(dt);              // world-time animation: stops while paused, scales
    pulse_ += 4.0 * seconds(frame.real_dt);  // UI animation: runs on while paused
  }

  void on_input(const engine::InputEvent& e) override {
    using Kind = engine::InputEvent::Kind;
    if (e.kind == Kind::cursor) cursor_ = {e.x, e.y};
    if (e.kind == Kind::mouse_button && e.action == engine::InputEvent::Action::press)
      boxes_.push_back({pacer::Interpolated<pacer::Vec2>{cursor_}, {240, 0}, 30, 0x60c0ffff});
    if (e.kind != Kind::key || e.action != engine::InputEvent::Action::press) return;
    switch (e.key) {
      case engine::keys::escape: quit_ = true; break;
      case engine::keys::space: loop_->paused() ? loop_->resume() : loop_->pause(); break;
      case '1': loop_->set_time_scale(0.5); break;
      case '2': loop_->set_time_scale(1.0); break;
      case '3': loop_->set_time_scale(2.0); break;
      case engine::keys::up: loop_->set_step(loop_->step() * 2); break;
      case engine::keys::down: loop_->set_step(std::max(Nanos{1'000'000}, loop_->step() / 2)); break;
      default: break;
    }
  }

  void render_frame(const engine::FrameInfo& frame, engine::DrawList&) override {  // never changes the world
    vertices_.clear();
    for (const Box& b : boxes_) {
      const pacer::Vec2 p = b.position.at(frame.alpha);
      rect(p.x, p.y, b.size, b.size, b.rgba);
    }
    // The spinner: a triangle turning with world time (held while paused).
    const double cx = width_ - 60.0, cy = 60.0, r = 40.0;
    for (int i = 0; i < 3; ++i) {
      const double a = spin_ + i * 2.0943951023931953;
      vertices_.push_back(vertex(cx + r * std::cos(a), cy + r * std::sin(a), i == 0 ? 0xffd040ffu : 0xff6020ffu));
    }
    // The frame-rate bar: the loop's rolling fps (over its window), 4 px per frame/s.
    rect(10, height_ - 20.0, 4.0 * loop_->stats().fps(), 10, 0x40ff60ffu);
    // Paused: a pulsing sign (the UI runs on real time).
    if (frame.paused) {
      const auto a = static_cast<std::uint32_t>(160 + 95 * std::sin(pulse_));
      rect(20, 20, 12, 40, 0xffffff00u | a);
      rect(40, 20, 12, 40, 0xffffff00u | a);
    }
  }

  std::span<const own::Vertex> vertices() const { return vertices_; }
  bool quit() const { return quit_; }

  void spawn() {
    const std::uint32_t colours[] = {0xe04040ffu, 0x40e040ffu, 0x4060f0ffu, 0xe0e040ffu, 0xe040e0ffu};
    for (int i = 0; i < 5; ++i)
      boxes_.push_back({pacer::Interpolated<pacer::Vec2>{{40.0 + 90 * i, 100.0 + 70 * i}}, {150.0 + 60 * i, 0}, 40,
                        colours[i]});
  }

 private:
  struct Box {
    pacer::Interpolated<pacer::Vec2> position;
    pacer::Vec2 velocity;  ///< pixels per second of world time
    double size;
    std::uint32_t rgba;
  };
  void rect(double x, double y, double w, double h, std::uint32_t rgba) {
    for (const auto& [px, py] : {std::pair{x, y}, {x + w, y}, {x + w, y + h}, {x, y}, {x + w, y + h}, {x, y + h}})
      vertices_.push_back(vertex(px, py, rgba));
  }

  engine::Loop* loop_ = nullptr;
  std::vector<Box> boxes_;
  std::vector<own::Vertex> vertices_;  ///< the game's own draw data
  double width_ = 960, height_ = 540;
  double spin_ = 0, pulse_ = 0;
  pacer::Vec2 cursor_{100, 100};
  bool quit_ = false;
};

/// The game's renderer as the loop's frame target: the loop says when to acquire, draw and
/// present; the game's GPU code does it with the game's draw data.
class GpuTarget final : public engine::FrameTarget {
 public:
  GpuTarget(own::Gpu& gpu, const Game& game, engine::Window& window) : gpu_{gpu}, game_{game}, window_{window} {}
  // Minimized (iconified, or 0x0: on X11 a minimized window keeps its size): nothing to draw.
  bool acquire() override { return !window_.minimized() && gpu_.begin(); }
  bool wait_until_ready() override {
    if (window_.minimized()) glfwWaitEventsTimeout(0.1);  // wait for the window to come back
    return !window_.should_close();
  }
  void draw(const engine::DrawList&) override {
    const float clear[4] = {0.06f, 0.07f, 0.09f, 1.0f};
    gpu_.draw(game_.vertices(), clear);
  }
  void wait_drawn() override { gpu_.wait_drawn(); }
  pacer::PresentResult present(std::int64_t) override {
    gpu_.present();
    return {};  // the CPU's times (no present wait here)
  }

 private:
  own::Gpu& gpu_;
  const Game& game_;
  engine::Window& window_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"A game's own Vulkan renderer under engine::Loop, frame by frame.", "own_renderer"};
  fpcli::setup(app, FP_VERSION);
  long long frames = 0;
  double duration_s = 0, time_scale = 1, step_ms = 1000.0 / 64;
  long long pause_at = 0;
  std::string policy = "adaptive", present_mode = "fifo", log_path;
  bool validation = false, quiet = false, demo_keys = false;
  app.add_option("--frames", frames, "render N frames, then exit")->type_name("N")->transform(fpcli::whole(1, 10'000'000));
  app.add_option("--duration", duration_s, "run this long, then exit")->type_name("SECONDS")->transform(fpcli::real(0.001, 1e6));
  std::vector<std::string> policies;
  for (auto n : pacer::policy_names()) policies.emplace_back(n);
  app.add_option("--policy", policy, "pacing policy (default adaptive)")->type_name("NAME")->check(fpcli::one_of(policies));
  app.add_option("--present-mode", present_mode, "present mode (default fifo)")->type_name("MODE")->check(fpcli::one_of({"fifo", "mailbox", "immediate"}));
  app.add_option("--step-ms", step_ms, "fixed step of the world (default 15.625)")->type_name("MS")->transform(fpcli::real(0.01, 1000));
  app.add_option("--time-scale", time_scale, "world time per real time (default 1)")->type_name("K")->transform(fpcli::real(0.001, 1000));
  app.add_option("--pause-at", pause_at, "pause at frame N, resume at frame 2N")->type_name("N")->transform(fpcli::whole(1, 10'000'000));
  app.add_option("--log", log_path, "write the pacing log (native CSV)")->type_name("FILE")->check(fpcli::file_name());
  app.add_flag("--validation", validation, "enable the Khronos validation layer (exit 1 on any message)");
  app.add_flag("--quiet", quiet, "no status line each second");
  app.add_flag("--demo-keys", demo_keys, "the engine's demo keys (Esc, Space, P, +/-) before the game's");
  if (const int code = fpcli::parse(app, argc, argv); code >= 0) return code;

  const std::shared_ptr<spdlog::logger> lg = engine::logger();  // the engine's "framepacer" logger
  try {
    engine::Window window{"own_renderer", 960, 540};
    own::GpuConfig gc;
    gc.validation = validation;
    gc.present_mode = present_mode == "mailbox"     ? VK_PRESENT_MODE_MAILBOX_KHR
                      : present_mode == "immediate" ? VK_PRESENT_MODE_IMMEDIATE_KHR
                                                    : VK_PRESENT_MODE_FIFO_KHR;
    own::Gpu gpu{window.handle(), gc};
    lg->info("own_renderer: device '{}', {}x{}, {} images, policy {}", gpu.device_name(), gpu.extent().width,
             gpu.extent().height, gpu.image_count(), policy);

    Game game;
    game.resize(gpu.extent().width, gpu.extent().height);
    game.spawn();
    GpuTarget target{gpu, game, window};
    engine::SteadyClock clock;
    engine::PreciseWaiter waiter{clock};
    engine::Loop loop{clock, waiter, target, game};

    // The display the policy paces: FIFO at the monitor's rate, or presents held to their time.
    pacer::PolicyConfig cfg;
    cfg.sim.step = pacer::from_ms(step_ms);
    pacer::DisplaySpec display;
    display.mode = gpu.present_mode() == VK_PRESENT_MODE_FIFO_KHR      ? pacer::PresentMode::fifo
                   : gpu.present_mode() == VK_PRESENT_MODE_MAILBOX_KHR ? pacer::PresentMode::mailbox
                                                                        : pacer::PresentMode::immediate;
    if (const GLFWvidmode* mode = glfwGetVideoMode(glfwGetPrimaryMonitor()); mode && mode->refreshRate > 0)
      display.period = pacer::period_of_hz(mode->refreshRate);
    display.images = static_cast<int>(gpu.image_count());
    pacer::fit_to_display(cfg, display);
    loop.set_policy(policy, cfg);
    if (time_scale != 1.0) loop.set_time_scale(time_scale);

    // The log in whole rows (pacer::RecordFile): a full disk or a file-size limit ends the run
    // with "writing 'run.csv' failed: <reason>" and the log cut back to its last whole row.
    std::optional<pacer::RecordFile> log_file;
    std::optional<pacer::NativeLogWriter> log;
    if (!log_path.empty()) {
      log_file.emplace(log_path, "the log");
      log.emplace(log_file->stream());
      log_file->commit();  // the header
      log_file->flush();
      loop.on_record = [&](const pacer::FrameRecord& r) {
        log->write(r);
        log_file->commit();
        log_file->flush();
      };
    }
    loop.poll = [&] {
      for (const engine::InputEvent& e : window.poll()) {
        if (e.kind == engine::InputEvent::Kind::resize) {
          gpu.notify_resized();
          game.resize(e.width, e.height);
        }
        const engine::DemoKey k = demo_keys ? engine::demo_key(e, loop, game) : engine::DemoKey::none;
        if (k == engine::DemoKey::quit) return false;
        if (k == engine::DemoKey::none) loop.push_input(e);
      }
      return !window.should_close() && !game.quit();
    };

    // The game's own loop: one engine frame per iteration.
    const Nanos end = duration_s > 0 ? pacer::from_ms(duration_s * 1000) : Nanos::max();
    Nanos last_status = clock.now();
    std::int64_t presented = 0;
    while ((frames == 0 || presented < frames) && clock.now() < end && loop.frame()) {
      ++presented;
      if (pause_at > 0 && presented == pause_at) loop.pause();
      if (pause_at > 0 && presented == 2 * pause_at) loop.resume();
      if (!quiet && clock.now() - last_status >= Nanos{1'000'000'000}) {
        last_status = clock.now();
        const engine::RollingStats& s = loop.stats();
        lg->info("fps {:.1f} | p99 frame {:.2f} ms | p99 |anim err| {:.3f} ms | stutters {} | world {:.2f} s{}", s.fps(),
                 s.p99_frame_ms(), s.p99_anim_error_ms(), s.stutters(), seconds(loop.last_frame().world_time),
                 loop.paused() ? " (paused)" : "");
      }
    }
    loop.finish();
    const engine::RollingStats& s = loop.stats();
    lg->info("summary: {} frames, last {}: fps {:.1f} | p99 frame {:.2f} ms | p99 |anim err| {:.3f} ms | stutters {} | "
             "world time {:.3f} s",
             presented, s.size(), s.fps(), s.p99_frame_ms(), s.p99_anim_error_ms(), s.stutters(),
             seconds(loop.last_frame().world_time));
    if (validation) {
      lg->info("validation: {} messages", gpu.validation_messages());
      if (gpu.validation_messages() > 0) return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "own_renderer: %s\n", e.what());
    return 1;
  }
  return 0;
}
