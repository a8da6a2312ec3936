// samples/common/balls_scene.hpp - the scene both samples draw: balls bouncing with
// slow fixed-step logic, rendered by interpolation, under a load profile (real CPU work
// per render and per update, fragment work on the GPU). The loads are samples::TimedLoad:
// pacer's specs by frame index, or phases in seconds since the first render.
//
//   samples::BallsScene::Config cfg;  cfg.render = samples::TimedLoad::parse("constant:4", {});
//   samples::BallsScene scene{cfg};
//   return engine::run_app(options, scene, "my_sample");
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/app.hpp"
#include "engine/scene.hpp"
#include "pacer/interpolation.hpp"
#include "pacer/load_profile.hpp"
#include "ball_motion.hpp"
#include "timed_load.hpp"

namespace samples {

/// Real CPU work for the given time: the load is work, not a sleep.
inline void burn(double ms) {
  if (ms <= 0) return;
  const auto end = std::chrono::steady_clock::now() + std::chrono::nanoseconds{static_cast<std::int64_t>(ms * 1e6)};
  volatile double sink = 1.0;
  while (std::chrono::steady_clock::now() < end)
    for (int i = 0; i < 64; ++i) sink = sink * 1.0000001 + 1e-9;
}

struct Ball {
  pacer::Interpolated<pacer::Vec2> position;
  pacer::Vec2 velocity;  ///< pixels per second
  float radius;
  std::uint32_t rgba;
};

class BallsScene final : public engine::Scene {
 public:
  struct Config {
    int balls = 500;
    bool pixel_test = false;
    TimedLoad render;  ///< CPU ms per render
    TimedLoad update;  ///< CPU ms per update, by the frame it runs in
    TimedLoad gpu;     ///< fragment iterations per pixel
    std::uint64_t seed = 1;
  };
  // The pixel test's one ball: it starts here and moves right at this speed, never bouncing.
  static constexpr double test_x0 = 40.0, test_speed = 400.0, test_radius = 6.0;

  explicit BallsScene(Config c) : config_{c} {}

  void resize(std::uint32_t w, std::uint32_t h) override {
    width_ = w;
    height_ = h;
    if (balls_.empty()) spawn();
  }

  void fixed_update(pacer::Nanos step) override {
    burn(config_.update.ms(frame_, seconds()));
    const double dt = static_cast<double>(step.count()) / 1e9;
    for (Ball& b : balls_) {
      pacer::Vec2 p = b.position.current() + b.velocity * dt;
      if (!config_.pixel_test) bounce(p, b.velocity, b.radius, width_, height_);
      b.position.set(p);
    }
  }

  /// One render's load: CPU ms (burnt where the drawing happens) and GPU iterations.
  struct FrameLoad {
    double cpu_ms = 0;
    std::uint32_t gpu = 0;
  };

  // One thread: draw the live balls. With a render thread (--render-thread): capture()
  // copies them on the simulation thread, render_state() draws the copy on the render
  // thread. Either way the frame's load is chosen on the simulation thread (the log's
  // load column) and burnt where the drawing happens.
  void render_frame(const engine::FrameInfo& frame, engine::DrawList& out) override {
    const FrameLoad load = next_load();
    burn(load.cpu_ms);
    draw(balls_, frame, load, out);
  }

  struct State final : engine::RenderState {
    std::vector<Ball> balls;
    FrameLoad load;
  };
  std::unique_ptr<engine::RenderState> make_render_state() const override { return std::make_unique<State>(); }
  void capture(const engine::FrameInfo&, engine::RenderState& into) override {
    auto& s = static_cast<State&>(into);
    s.balls = balls_;  // the slot's vector keeps its capacity: no allocation after the first frames
    s.load = next_load();
  }
  void render_state(const engine::FrameInfo& frame, const engine::RenderState& state, engine::DrawList& out) override {
    const auto& s = static_cast<const State&>(state);
    burn(s.load.cpu_ms);
    draw(s.balls, frame, s.load, out);
  }

  /// Where a ball is drawn: the blend of its last two states at the frame's alpha, or
  /// (FrameInfo::extrapolate) its newest state moved on with its velocity to the frame's
  /// world time, which goes past a wall the ball has just bounced off.
  static pacer::Vec2 shown(const Ball& b, const engine::FrameInfo& frame) {
    if (!frame.extrapolate) return b.position.at(frame.alpha);
    const double ahead_s = static_cast<double>((frame.world_time - frame.world_current).count()) / 1e9;
    return b.position.current() + b.velocity * ahead_s;
  }

  std::string adjust_load(int direction) override {
    extra_render_ms_ = std::max(0.0, extra_render_ms_ + direction * 1.0);
    return "render +" + std::to_string(extra_render_ms_) + " ms over the profile";
  }
  double load_ms() const override { return load_ms_; }

 private:
  /// The next render's load (the profiles' frame index and run time); the log's load column.
  FrameLoad next_load() {
    if (!first_render_) first_render_ = std::chrono::steady_clock::now();
    const double t = seconds();
    FrameLoad l;
    l.cpu_ms = config_.render.ms(frame_, t) + extra_render_ms_;
    l.gpu = static_cast<std::uint32_t>(std::lround(config_.gpu.ms(frame_, t)));
    ++frame_;
    load_ms_ = l.cpu_ms;
    return l;
  }

  static void draw(const std::vector<Ball>& balls, const engine::FrameInfo& frame, const FrameLoad& load,
                   engine::DrawList& out) {
    out.gpu_load = load.gpu;
    out.clear_rgba = 0x000000ff;
    out.circles.reserve(balls.size());
    for (const Ball& b : balls) {
      const pacer::Vec2 p = shown(b, frame);
      out.circles.push_back({static_cast<float>(p.x), static_cast<float>(p.y), b.radius, b.rgba});
    }
  }

  void spawn() {
    if (config_.pixel_test) {
      balls_.push_back({pacer::Interpolated<pacer::Vec2>{{test_x0, height_ / 2.0}}, {test_speed, 0},
                        static_cast<float>(test_radius), 0xff0000ff});
      return;
    }
    for (const BallStart& b : spawn_balls(config_.balls, width_, height_, config_.seed))
      balls_.push_back({pacer::Interpolated<pacer::Vec2>{b.position}, b.velocity, b.radius, b.rgba});
  }

  /// Seconds since the first render began: the clock of timed load phases (0 before it).
  double seconds() const {
    if (!first_render_) return 0;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - *first_render_).count();
  }

  Config config_;
  std::int64_t frame_ = 0;        ///< renders so far: the load profiles' frame index
  std::optional<std::chrono::steady_clock::time_point> first_render_;
  double extra_render_ms_ = 0;    ///< +/- keys
  double load_ms_ = 0;
  std::vector<Ball> balls_;
  double width_ = 1280, height_ = 720;
};


/// Opens trace files for load specs; relative paths are tried as given, then under the
/// repository's traces/ folder (a directory, a device or a file over 64 MiB is refused).
inline pacer::TraceOpener trace_files() { return pacer::trace_file_opener({FP_TRACES_DIR}); }

/// The command line and run of a balls sample: engine flags plus --balls, --logic-hz,
/// --pixel-test and the load specs (docs/load-profiles.md). Exit codes as engine::run_app;
/// a malformed load spec or trace is a usage error (2).
inline int run_balls_sample(int argc, char** argv, const char* name, const char* description,
                            std::string render_spec, std::string update_spec, std::string gpu_spec) {
  engine::Cli cli{name, description};
  BallsScene::Config scene;
  double logic_hz = 0;
  cli.add_int("--balls", "N", "number of balls (default 500)", scene.balls, 1, 200'000);
  cli.add_double("--logic-hz", "HZ", "simulation rate (default 25; or --step-ms, the step itself)", logic_hz, 1, 10'000);
  cli.add_string("--render-load", "SPEC", "CPU ms per render (default " + render_spec + ")", render_spec);
  cli.add_string("--update-load", "SPEC", "CPU ms per update (default " + update_spec + ")", update_spec);
  cli.add_string("--gpu-load", "SPEC", "fragment iterations per pixel (default " + gpu_spec + ")", gpu_spec);
  cli.add_bool("--pixel-test", "one red ball moving right at 400 px/s from x=40, no bounce", scene.pixel_test);
  engine::Options options;
  options.pacing.sim.step = pacer::Nanos{40'000'000};  // 25 Hz logic, as in the flipcode demo
  options.demo_keys = true;                             // a demo: Esc, Space, P, +/-
  if (const int code = cli.parse(argc, argv, options); code >= 0) return code;
  if (logic_hz > 0 && cli.given("--step-ms"))
    return cli.usage_error("--logic-hz: give --logic-hz or --step-ms, not both (both set the step)");
  if (logic_hz > 0) options.pacing.sim.step = pacer::from_ms(1000.0 / logic_hz);
  try {
    scene.render = TimedLoad::parse(render_spec, trace_files());
    scene.update = TimedLoad::parse(update_spec, trace_files());
    scene.gpu = TimedLoad::parse(gpu_spec, trace_files());
  } catch (const pacer::LoadSpecError& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return 2;
  }
  options.load_description = "render " + render_spec + "; update " + update_spec + "; gpu " + gpu_spec;
  // Test only: FP_FAULT=device_lost@N|surface_lost@N|out_of_date@N|out_of_date_every has the
  // renderer report that driver error (renderer/README.md, "Fault injection"). The samples
  // read it; the libraries read no environment variable.
  if (const char* fault = std::getenv("FP_FAULT")) options.renderer_fault = fault;
  scene.seed = options.seed;
  BallsScene balls{scene};
  return engine::run_app(options, balls, name);
}

}  // namespace samples
