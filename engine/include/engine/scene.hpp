// engine/scene.hpp - what an application gives the engine: a fixed update, an interpolated
// render, and optionally input, a variable-rate update and the frame plan.
//
//   class Ball final : public engine::Scene {
//     pacer::Interpolated<pacer::Vec2> pos_{{100, 100}};
//     pacer::Vec2 vel_{200, 0};                       // pixels per second
//     void fixed_update(pacer::Nanos step) override {  // the only place world state changes
//       pos_.set(pos_.current() + vel_ * (pacer::to_ms(step) / 1e3));
//     }
//     void render(double alpha, engine::DrawList& out) override {  // never changes world state
//       pacer::Vec2 p = pos_.at(alpha);
//       out.circles.push_back({float(p.x), float(p.y), 10.f, 0xff8000ff});
//     }
//   };
//
// (tests/docs/example_scene_hpp.cpp builds this example as it is written here.)
// Per frame the loop calls, in this order (docs/host-loop.md):
//   on_input(e) for each event since the last frame -> update(dt, frame) -> render_frame(frame, out)
//   (its default calls render(frame.alpha, out)) -> present -> fixed_update(step) x the
//   pacer's count -> wait. While the loop is paused fixed_update is not called at all.
//
// With a render thread (Loop::set_render_thread, docs/render-thread.md) render_frame is not
// called: on the loop's (simulation) thread capture(frame, state) copies what drawing needs
// into a RenderState of the scene's own kind, and the render thread draws that copy with
// render_state(frame, state, out) while the next fixed updates run:
//
//   struct BallState final : engine::RenderState { std::vector<Ball> balls; };
//   std::unique_ptr<engine::RenderState> make_render_state() const override { return std::make_unique<BallState>(); }
//   void capture(const engine::FrameInfo&, engine::RenderState& s) override { static_cast<BallState&>(s).balls = balls_; }
//   void render_state(const engine::FrameInfo& f, const engine::RenderState& s, engine::DrawList& out) override {
//     for (const Ball& b : static_cast<const BallState&>(s).balls) out.circles.push_back(b.at(f.alpha));
//   }
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/input.hpp"
#include "pacer/interpolation.hpp"  // pacer::Interpolated, pacer::Vec2: a scene's state, as in the example
#include "pacer/pacer.hpp"
#include "pacer/time.hpp"

namespace engine {

class Loop;

/// A filled circle in framebuffer pixels (origin top-left), colour 0xRRGGBBAA.
struct Circle {
  float x = 0, y = 0, radius = 1;
  std::uint32_t rgba = 0xffffffff;
};

/// What a render produces for the engine's renderer (a host with its own renderer ignores it).
struct DrawList {
  std::vector<Circle> circles;
  std::uint32_t clear_rgba = 0x101418ff;
  std::uint32_t gpu_load = 0;  ///< extra fragment work per pixel (the renderer's load knob)
  void clear() {
    circles.clear();
    gpu_load = 0;
  }
};

/// The frame plan as the scene sees it. Times are on the loop's clock (nanoseconds since
/// the run start) unless named world_*: world time is the sum of the fixed steps the scene
/// was given, so it stops while paused and runs at time_scale x real time.
struct FrameInfo {
  std::int64_t frame = 0;        ///< the loop's frame index (counts across policy switches)
  double alpha = 1.0;            ///< render lerp(previous, current, alpha); held while paused; 1 with interpolation off
  pacer::Nanos world_time{0};    ///< the world time this frame shows: world_previous + alpha x (world_current - world_previous)
  pacer::Nanos world_previous{0};  ///< world time of the scene's previous state
  pacer::Nanos world_current{0};   ///< world time of the scene's current state (every fixed step so far)
  pacer::Nanos dt{0};            ///< the frame gap x time scale; 0 while paused (the variable update's dt)
  pacer::Nanos real_dt{0};       ///< the frame gap: this frame's start - the previous frame's start (0 for the first)
  pacer::Nanos start{0};         ///< when the frame began
  pacer::Nanos interval{0};      ///< the render interval the policy plans with (0: none)
  std::optional<pacer::Nanos> planned_present;  ///< when the present is held to, where the policy plans one
  pacer::Nanos step{0};          ///< the fixed step of fixed_update (world time)
  double time_scale = 1.0;       ///< world time per real time
  bool paused = false;
  /// Render the newest state projected to world_time with its own velocity (position +
  /// velocity x (world_time - world_current)) instead of the blend of the last two
  /// (Loop::set_extrapolate). The world time shown is the same either way.
  bool extrapolate = false;
  bool render_thread = false;    ///< this frame is drawn on the render thread (render_state)
  const pacer::FramePlan* plan = nullptr;  ///< the pacer's own plan (pacer time = real time), valid during the call
};

/// A scene's copy of what its drawing reads (previous and current states, colours...),
/// filled on the simulation thread and drawn on the render thread. Derive one per scene.
class RenderState {
 public:
  virtual ~RenderState() = default;
};

class Scene {
 public:
  virtual ~Scene() = default;
  /// Advance the world by exactly `step` of simulation time.
  virtual void fixed_update(pacer::Nanos step) = 0;
  /// Draw the world at previous + alpha x (current - previous). Must not change world state.
  virtual void render(double /*alpha*/, DrawList& /*out*/) {}
  /// The plan-aware render: the default draws render(frame.alpha, out). A scene with its own
  /// renderer fills its own draw data here and ignores `out`.
  virtual void render_frame(const FrameInfo& frame, DrawList& out) { render(frame.alpha, out); }
  /// The variable-rate update, once a frame before its render: camera, UI, particles.
  /// `dt` is the frame gap x the time scale (0 while paused; frame.real_dt runs on).
  virtual void update(pacer::Nanos /*dt*/, const FrameInfo& /*frame*/) {}
  /// Input since the last frame, in order, before update().
  virtual void on_input(const InputEvent& /*event*/) {}
  /// The loop this scene runs in (called once, by the loop's constructor): pause, time
  /// scale, step, policy and stats are there.
  virtual void attached(Loop& /*loop*/) {}
  /// The framebuffer size, before the first render and after each resize.
  virtual void resize(std::uint32_t /*width*/, std::uint32_t /*height*/) {}
  /// The user pressed + (1) or - (-1) (demo keys): change the scene's load. Returns a description.
  virtual std::string adjust_load(int /*direction*/) { return {}; }
  /// Extra per-frame value for the log's load column (ms), if the scene has a load model.
  virtual double load_ms() const { return 0.0; }

  // ---- a render thread (Loop::set_render_thread): drawing overlaps the fixed updates

  /// An empty RenderState of this scene's kind. nullptr (the default): the scene draws on
  /// the loop's thread only, and Loop::set_render_thread refuses it.
  virtual std::unique_ptr<RenderState> make_render_state() const { return nullptr; }
  /// Simulation thread, once a frame in place of render_frame: copy into `into` (made by
  /// make_render_state, reused frame after frame) everything render_state() reads.
  virtual void capture(const FrameInfo& /*frame*/, RenderState& /*into*/) {}
  /// Render thread: draw `state` as render_frame draws the live scene. Must not read the
  /// scene's live world state (the simulation thread is changing it meanwhile).
  virtual void render_state(const FrameInfo& /*frame*/, const RenderState& /*state*/, DrawList& /*out*/) {}
};

}  // namespace engine
