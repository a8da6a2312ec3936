// bouncing_balls: the flipcode demo remade. Balls bounce around the window while
// their logic runs at a slow rate (25 Hz by default), so interpolation visibly
// matters: press Space to turn it off and watch them stutter.
//
//   bouncing_balls --frames 600 --present-mode immediate --policy adaptive --log run.csv
//   bouncing_balls --headless --pixel-test --frames 30 --capture f.ppm --log run.csv
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/app.hpp"
#include "pacer/interpolation.hpp"

namespace {

/// splitmix64: a tiny seeded generator whose sequence is the same everywhere.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_{seed} {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

/// Real CPU work for the given time: the load is work, not a sleep.
void burn(double ms) {
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

class BouncingBalls final : public engine::Scene {
 public:
  struct Config {
    int balls = 500;
    bool pixel_test = false;
    double render_load_ms = 0, update_load_ms = 0;
    std::uint64_t seed = 1;
  };
  // The pixel test's one ball: it starts here and moves right at this speed, never bouncing.
  static constexpr double test_x0 = 40.0, test_speed = 400.0, test_radius = 6.0;

  explicit BouncingBalls(Config c) : config_{c} {}

  void resize(std::uint32_t w, std::uint32_t h) override {
    width_ = w;
    height_ = h;
    if (balls_.empty()) spawn();
  }

  void fixed_update(pacer::Nanos step) override {
    burn(config_.update_load_ms);
    const double dt = static_cast<double>(step.count()) / 1e9;
    for (Ball& b : balls_) {
      pacer::Vec2 p = b.position.current() + b.velocity * dt;
      if (!config_.pixel_test) bounce(b, p);
      b.position.set(p);
    }
  }

  void render(double alpha, engine::DrawList& out) override {
    burn(config_.render_load_ms);
    out.clear_rgba = 0x000000ff;
    out.circles.reserve(balls_.size());
    for (const Ball& b : balls_) {
      const pacer::Vec2 p = b.position.at(alpha);
      out.circles.push_back({static_cast<float>(p.x), static_cast<float>(p.y), b.radius, b.rgba});
    }
  }

  std::string adjust_load(int direction) override {
    config_.render_load_ms = std::max(0.0, config_.render_load_ms + direction * 1.0);
    return "render " + std::to_string(config_.render_load_ms) + " ms";
  }
  double load_ms() const override { return config_.render_load_ms; }

 private:
  void spawn() {
    if (config_.pixel_test) {
      balls_.push_back({pacer::Interpolated<pacer::Vec2>{{test_x0, height_ / 2.0}}, {test_speed, 0},
                        static_cast<float>(test_radius), 0xff0000ff});
      return;
    }
    Random rng{config_.seed};
    for (int i = 0; i < config_.balls; ++i) {
      const auto r = static_cast<float>(rng.uniform(4, 14));
      const pacer::Vec2 p{rng.uniform(r, width_ - r), rng.uniform(r, height_ - r)};
      const double angle = rng.uniform(0, 6.283185307179586), speed = rng.uniform(120, 480);
      const auto channel = [&] { return static_cast<std::uint32_t>(rng.uniform(80, 255)); };
      const std::uint32_t rgba = channel() << 24 | channel() << 16 | channel() << 8 | 0xffu;
      balls_.push_back({pacer::Interpolated<pacer::Vec2>{p}, {speed * std::cos(angle), speed * std::sin(angle)}, r, rgba});
    }
  }

  void bounce(Ball& b, pacer::Vec2& p) const {
    const double r = b.radius, w = width_, h = height_;
    if (p.x < r) { p.x = 2 * r - p.x; b.velocity.x = std::abs(b.velocity.x); }
    if (p.x > w - r) { p.x = 2 * (w - r) - p.x; b.velocity.x = -std::abs(b.velocity.x); }
    if (p.y < r) { p.y = 2 * r - p.y; b.velocity.y = std::abs(b.velocity.y); }
    if (p.y > h - r) { p.y = 2 * (h - r) - p.y; b.velocity.y = -std::abs(b.velocity.y); }
  }

  Config config_;
  std::vector<Ball> balls_;
  double width_ = 1280, height_ = 720;
};

}  // namespace

int main(int argc, char** argv) {
  engine::Cli cli{"bouncing_balls",
                  "Balls bouncing with slow logic (25 Hz) and interpolated rendering.\n"
                  "Keys: Esc quits, Space toggles interpolation, P cycles policies, +/- change the render load."};
  BouncingBalls::Config scene;
  double logic_hz = 0;
  cli.add_int("--balls", "N", "number of balls (default 500)", scene.balls, 1, 200'000);
  cli.add_double("--logic-hz", "HZ", "simulation rate (default 25; --step-ms sets the step directly)", logic_hz, 1, 10'000);
  cli.add_double("--render-load-ms", "MS", "CPU work per render", scene.render_load_ms, 0, 1000);
  cli.add_double("--update-load-ms", "MS", "CPU work per update", scene.update_load_ms, 0, 1000);
  cli.add_bool("--pixel-test", "one red ball moving right at 400 px/s from x=40, no bounce", scene.pixel_test);
  engine::Options options;
  options.pacing.sim.step = pacer::Nanos{40'000'000};  // 25 Hz logic, as in the flipcode demo
  if (const int code = cli.parse(argc, argv, options); code >= 0) return code;
  if (logic_hz > 0) options.pacing.sim.step = pacer::from_ms(1000.0 / logic_hz);
  scene.seed = options.seed;
  BouncingBalls balls{scene};
  return engine::run_app(options, balls, "bouncing_balls");
}
