// engine/scene.hpp - what an application gives the engine: a fixed update and an
// interpolated render.
//
//   class Ball final : public engine::Scene {
//     pacer::Interpolated<pacer::Vec2> pos_{{100, 100}};
//     pacer::Vec2 vel_{200, 0};                       // pixels per second
//     void fixed_update(pacer::Nanos step) override {  // the only place state changes
//       pos_.set(pos_.current() + vel_ * (pacer::to_ms(step) / 1e3));
//     }
//     void render(double alpha, engine::DrawList& out) override {  // never changes state
//       pacer::Vec2 p = pos_.at(alpha);
//       out.circles.push_back({float(p.x), float(p.y), 10.f, 0xff8000ff});
//     }
//   };
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pacer/time.hpp"

namespace engine {

/// A filled circle in framebuffer pixels (origin top-left), colour 0xRRGGBBAA.
struct Circle {
  float x = 0, y = 0, radius = 1;
  std::uint32_t rgba = 0xffffffff;
};

/// What a render produces; the engine hands it to the renderer.
struct DrawList {
  std::vector<Circle> circles;
  std::uint32_t clear_rgba = 0x101418ff;
  std::uint32_t gpu_load = 0;  ///< extra fragment work per pixel (the renderer's load knob)
  void clear() {
    circles.clear();
    gpu_load = 0;
  }
};

class Scene {
 public:
  virtual ~Scene() = default;
  /// Advance the world by exactly `step` of simulation time.
  virtual void fixed_update(pacer::Nanos step) = 0;
  /// Draw the world at previous + alpha x (current - previous). Must not change world state.
  virtual void render(double alpha, DrawList& out) = 0;
  /// The framebuffer size, before the first render and after each resize.
  virtual void resize(std::uint32_t /*width*/, std::uint32_t /*height*/) {}
  /// The user pressed + (1) or - (-1): change the scene's load. Returns a description.
  virtual std::string adjust_load(int /*direction*/) { return {}; }
  /// Extra per-frame value for the log's load column (ms), if the scene has a load model.
  virtual double load_ms() const { return 0.0; }
};

}  // namespace engine
