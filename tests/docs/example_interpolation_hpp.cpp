// header: pacer/core/include/pacer/interpolation.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/interpolation.hpp, word for word between the two
// marks: one update moves the position 4 px, the render at alpha 0.25 shows it 1 px along,
// and slerp halfway from no turn to a quarter turn about z is an eighth turn.
#include <cmath>
#include <cstdio>

#include "pacer/interpolation.hpp"

int main() {
  const pacer::Vec2 velocity{200, 0};             // pixels per second
  const double dt = 0.02;                         // the fixed step, in seconds
  const struct { double alpha = 0.25; } plan;     // what begin_frame returned (pacer::FramePlan)
  const double h = std::sqrt(0.5);
  const pacer::Quat a{};                          // no turn
  const pacer::Quat b{h, 0, 0, h};                // a quarter turn about z
  const double alpha = 0.5;
// [example]
pacer::Interpolated<pacer::Vec2> pos{{0, 0}};
pos.set(pos.current() + velocity * dt);     // in the fixed update: previous = current; current = v
pacer::Vec2 shown = pos.at(plan.alpha);     // in the render
pacer::Quat q = pacer::slerp(a, b, alpha);  // orientations: slerp (or nlerp, cheaper)
// [example]
  const double eighth = std::cos(std::acos(-1.0) / 8);  // cos(pi/8): half of an eighth turn
  bool blended = std::abs(shown.x - 1.0) < 1e-9 && shown.y == 0.0 && pos.current().x > 3.99;
  bool turned = std::abs(q.w - eighth) < 1e-9 && std::abs(q.z - std::sqrt(1 - eighth * eighth)) < 1e-9;
  if (!blended || !turned) return 1;
  std::printf("shown at x %.2f, q = (%.4f, 0, 0, %.4f)\n", shown.x, q.w, q.z);
  return 0;
}
