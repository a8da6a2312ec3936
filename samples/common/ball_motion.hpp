// samples/common/ball_motion.hpp - the bouncing balls' motion, apart from any drawing: their
// start (seeded), the fixed step's bounce off the walls, and the exact path the steps sample.
// The balls samples step it; bench/extrapolation measures interpolation and extrapolation
// against the exact path. Needs only the pacer core.
//
//   std::vector<samples::BallStart> balls = samples::spawn_balls(500, 1280, 720, /*seed*/ 1);
//   pacer::Vec2 p = samples::exact_position(balls[0], 1280, 720, 2.5);   // where it is at 2.5 s
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "pacer/interpolation.hpp"
#include "pacer/random.hpp"

namespace samples {

struct BallStart {
  pacer::Vec2 position;
  pacer::Vec2 velocity;  ///< pixels per second
  float radius = 1;
  std::uint32_t rgba = 0xffffffff;
};

/// `count` balls inside a width x height box, reproducible from `seed`: radius 4-14 px,
/// speed 120-480 px/s in any direction.
inline std::vector<BallStart> spawn_balls(int count, double width, double height, std::uint64_t seed) {
  pacer::SplitMix64 rng{seed};
  const auto uniform = [&rng](double lo, double hi) { return lo + (hi - lo) * rng.unit(); };
  std::vector<BallStart> balls;
  balls.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const auto r = static_cast<float>(uniform(4, 14));
    const pacer::Vec2 p{uniform(r, width - r), uniform(r, height - r)};
    const double angle = uniform(0, 6.283185307179586), speed = uniform(120, 480);
    const auto channel = [&] { return static_cast<std::uint32_t>(uniform(80, 255)); };
    const std::uint32_t rgba = channel() << 24 | channel() << 16 | channel() << 8 | 0xffu;
    balls.push_back({p, {speed * std::cos(angle), speed * std::sin(angle)}, r, rgba});
  }
  return balls;
}

/// The fixed step's wall rule: a position `p` past a wall of the width x height box is
/// mirrored back inside and the velocity turned away from that wall.
inline void bounce(pacer::Vec2& p, pacer::Vec2& velocity, double radius, double width, double height) {
  const double r = radius, w = width, h = height;
  if (p.x < r) { p.x = 2 * r - p.x; velocity.x = std::abs(velocity.x); }
  if (p.x > w - r) { p.x = 2 * (w - r) - p.x; velocity.x = -std::abs(velocity.x); }
  if (p.y < r) { p.y = 2 * r - p.y; velocity.y = std::abs(velocity.y); }
  if (p.y > h - r) { p.y = 2 * (h - r) - p.y; velocity.y = -std::abs(velocity.y); }
}

/// One axis of the exact path: the free flight from `x0` at `v` folded into [r, extent - r].
/// The fixed steps (bounce) land on it exactly while a step moves a ball less than the box.
inline double fold(double x0, double v, double t, double r, double extent, double* velocity = nullptr) {
  const double span = extent - 2 * r;
  double u = std::fmod(x0 - r + v * t, 2 * span);
  if (u < 0) u += 2 * span;
  const bool back = u > span;
  if (velocity) *velocity = back ? -v : v;
  return r + (back ? 2 * span - u : u);
}

/// Where `ball` is `seconds` after its start, and (if asked) its velocity there.
inline pacer::Vec2 exact_position(const BallStart& ball, double width, double height, double seconds,
                                  pacer::Vec2* velocity = nullptr) {
  pacer::Vec2 v;
  const pacer::Vec2 p{fold(ball.position.x, ball.velocity.x, seconds, ball.radius, width, &v.x),
                      fold(ball.position.y, ball.velocity.y, seconds, ball.radius, height, &v.y)};
  if (velocity) *velocity = v;
  return p;
}

/// How far a ball drawn at `p` reaches past the nearest wall (0 inside the box).
inline double overshoot(pacer::Vec2 p, double radius, double width, double height) {
  const double r = radius;
  double o = 0;
  o = std::fmax(o, r - p.x);
  o = std::fmax(o, p.x - (width - r));
  o = std::fmax(o, r - p.y);
  o = std::fmax(o, p.y - (height - r));
  return o;
}

}  // namespace samples
