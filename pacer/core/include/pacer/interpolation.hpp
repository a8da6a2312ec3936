// pacer/interpolation.hpp - what a render does with alpha.
//
// Keep, per drawable object, the previous and the current state; updates move
// the pair forward, renders blend it (rendering never changes world state).
//
//   pacer::Interpolated<pacer::Vec2> pos{{0, 0}};
//   pos.set(pos.current() + velocity * dt);     // in the fixed update: previous = current; current = v
//   pacer::Vec2 shown = pos.at(plan.alpha);     // in the render
//   pacer::Quat q = pacer::slerp(a, b, alpha);  // orientations: slerp (or nlerp, cheaper)
#pragma once

#include <cmath>

namespace pacer {

template <typename T>
constexpr T lerp(const T& a, const T& b, double t) {
  return a + (b - a) * t;
}
constexpr float lerp(float a, float b, double t) { return static_cast<float>(a + (b - a) * t); }
constexpr double lerp(double a, double b, double t) { return a + (b - a) * t; }

struct Vec2 {
  double x = 0, y = 0;
  friend constexpr Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
  friend constexpr Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
  friend constexpr Vec2 operator*(Vec2 a, double s) { return {a.x * s, a.y * s}; }
  friend constexpr bool operator==(Vec2, Vec2) = default;
};

struct Vec3 {
  double x = 0, y = 0, z = 0;
  friend constexpr Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
  friend constexpr Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
  friend constexpr Vec3 operator*(Vec3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
  friend constexpr bool operator==(Vec3, Vec3) = default;
};

/// Unit quaternion (w + xi + yj + zk) for orientations.
struct Quat {
  double w = 1, x = 0, y = 0, z = 0;
  friend constexpr bool operator==(Quat, Quat) = default;
};

inline double dot(Quat a, Quat b) { return a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z; }

inline Quat normalize(Quat q) {
  const double n = std::sqrt(dot(q, q));
  if (n == 0.0) return Quat{};
  return {q.w / n, q.x / n, q.y / n, q.z / n};
}

/// Normalised lerp along the shorter arc: cheap, constant-speed only approximately.
inline Quat nlerp(Quat a, Quat b, double t) {
  if (dot(a, b) < 0.0) b = {-b.w, -b.x, -b.y, -b.z};
  return normalize({a.w + (b.w - a.w) * t, a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t});
}

/// Spherical lerp along the shorter arc, constant angular speed; falls back to
/// nlerp when the two are nearly equal (the sine would vanish).
inline Quat slerp(Quat a, Quat b, double t) {
  double c = dot(a, b);
  if (c < 0.0) {
    b = {-b.w, -b.x, -b.y, -b.z};
    c = -c;
  }
  if (c > 0.9995) return nlerp(a, b, t);
  const double theta = std::acos(c);
  const double s = std::sin(theta);
  const double wa = std::sin((1.0 - t) * theta) / s;
  const double wb = std::sin(t * theta) / s;
  return {wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z};
}

/// Prediction instead of blending: `position + velocity * ahead`. For comparison
/// only: it overshoots on every change of direction (docs/background.md, section 4).
template <typename T>
constexpr T extrapolate(const T& position, const T& velocity, double ahead_seconds) {
  return position + velocity * ahead_seconds;
}

/// A previous/current pair of user state.
template <typename T>
class Interpolated {
 public:
  constexpr Interpolated() = default;
  constexpr explicit Interpolated(const T& initial) : previous_{initial}, current_{initial} {}

  /// A fixed update produced a new state: previous = current; current = next.
  constexpr void set(const T& next) {
    previous_ = current_;
    current_ = next;
  }
  /// Teleport: no blend from the old state (spawn, respawn, camera cut).
  constexpr void reset(const T& value) { previous_ = current_ = value; }
  constexpr const T& previous() const { return previous_; }
  constexpr const T& current() const { return current_; }
  /// The state to render: previous + alpha x (current - previous).
  constexpr T at(double alpha) const { return lerp(previous_, current_, alpha); }

 private:
  T previous_{};
  T current_{};
};

}  // namespace pacer
