// header: engine/include/engine/scene.hpp
// links: framepacer::engine_core
// run: yes
// The first usage example of engine/scene.hpp, word for word between the two marks (ctest
// docs_example_scene_hpp checks the header still quotes it), built with that header alone
// and stepped by hand: a second of fixed updates moves the ball 200 pixels.
#include <cstdio>

#include "engine/scene.hpp"

// [example]
class Ball final : public engine::Scene {
  pacer::Interpolated<pacer::Vec2> pos_{{100, 100}};
  pacer::Vec2 vel_{200, 0};                       // pixels per second
  void fixed_update(pacer::Nanos step) override {  // the only place world state changes
    pos_.set(pos_.current() + vel_ * (pacer::to_ms(step) / 1e3));
  }
  void render(double alpha, engine::DrawList& out) override {  // never changes world state
    pacer::Vec2 p = pos_.at(alpha);
    out.circles.push_back({float(p.x), float(p.y), 10.f, 0xff8000ff});
  }
};
// [example]

int main() {
  Ball ball;
  engine::Scene& scene = ball;
  for (int i = 0; i < 100; ++i) scene.fixed_update(pacer::Nanos{10'000'000});
  engine::DrawList out;
  scene.render(1.0, out);
  if (out.circles.size() != 1) return 1;
  std::printf("ball at %.1f, %.1f\n", static_cast<double>(out.circles[0].x), static_cast<double>(out.circles[0].y));
  return out.circles[0].x > 299.0f && out.circles[0].x < 301.0f ? 0 : 1;
}
