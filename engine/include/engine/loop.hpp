// engine/loop.hpp - the real-time loop: the only place that reads the clock or waits.
//
// It drives any pacer policy through pacer::FrameDriver (pacer/frame_driver.hpp), the
// same driver the virtual-time simulator uses, so both make the same calls in the same
// order: it renders the scene with the plan's alpha, holds the present until the plan's
// time, presents through a FrameTarget, runs the fixed updates the pacer asks for and
// waits where it says. Completed frame records go to a callback (with display times
// patched in when the target reports them).
//
//   engine::SteadyClock clock;
//   engine::PreciseWaiter waiter{clock};
//   engine::Loop loop{clock, waiter, target, scene};
//   loop.set_policy("adaptive", cfg);
//   loop.on_record = [&](const pacer::FrameRecord& r) { log.write(r); };
//   loop.run({.max_frames = 600});
//
// Or one frame per call, from a loop the host owns (SDL's, an editor's, a browser's):
//
//   while (loop.frame()) { /* the host's own work between frames */ }
//   loop.finish();                        // closes the last frame: the same log as run()
//
// Or never waiting, from a callback that must return at once (a browser's
// requestAnimationFrame, an editor's idle handler): pump() runs what is due and says when
// the next thing is due.
//
//   engine::PumpResult r = loop.pump();   // a frame when due, its updates; then returns
//   schedule_callback_at(r.next);         // call pump() again at or after r.next (loop.now())
//
// frame() runs the previous frame's fixed updates and waits (as the pacer says), then
// poll(), then renders and presents the next frame. The target may be the host's own
// renderer (a FrameTarget: acquire, draw, present): the host presents, the loop says when
// and which world time (FrameInfo). Pause, time scale, the step and the policy's config
// change at the next frame boundary (docs/host-loop.md).
//
// A render thread (set_render_thread, docs/render-thread.md): the scene's render runs on a
// thread of the loop's own, drawing a copy of the state (Scene::capture / render_state)
// while this thread runs the next fixed updates; the pacer, its decisions and the log
// stay on this thread, the same calls in the same order.
//
//   loop.set_render_thread(true);        // from the next frame; the scene needs a RenderState
//   loop.when_target_idle([&] { renderer.capture_ppm("shot.ppm"); });  // the target, safely
//
// Clock jumps: the loop's time never goes backwards. A clock that steps back (a manual
// clock in a test, a host clock set back) makes a zero-length gap and the loop goes on
// from there (waits translated to the clock's own time); a step forward is a stall the
// policies' stall clamp and step cap absorb (no burst of updates). A run that ends with an
// exception (a lost device or surface) hands every frame already presented to on_record
// first.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/clock.hpp"
#include "engine/frame_target.hpp"
#include "engine/input.hpp"
#include "engine/rolling_stats.hpp"
#include "engine/scene.hpp"
#include "engine/waiter.hpp"
#include "pacer/frame_driver.hpp"
#include "pacer/policies.hpp"

namespace engine {

class RenderThread;

struct RunLimits {
  std::int64_t max_frames = 0;  ///< 0: no limit
  Nanos max_duration{0};        ///< 0: no limit
};

struct RunResult {
  std::int64_t frames = 0;
  Nanos duration{0};
  bool quit_requested = false;  ///< stopped by poll() / a closed window, not by a limit
};

/// What Loop::pump() did, and when to call it again.
struct PumpResult {
  bool running = true;     ///< false: poll() or the target quit (as frame() false): call finish()
  bool presented = false;  ///< this call presented a frame
  Nanos next{0};           ///< call pump() again at or after this time (the loop's clock, now())
};

class Loop {
 public:
  Loop(const Clock& clock, Waiter& waiter, FrameTarget& target, Scene& scene);
  ~Loop();
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;

  // ---- the policy and its configuration: every change takes effect at the next frame boundary

  /// A pacer made by the host (the loop knows neither its policy nor its world step: pause,
  /// time scale and step changes need set_policy and throw std::logic_error without it).
  void set_pacer(std::unique_ptr<pacer::Pacer> pacer);
  /// The named policy with `config` (its sim.step is the world's fixed step), from the next
  /// frame (P cycles policies this way). Throws std::invalid_argument for an unknown name or
  /// a config the policy refuses, at the call. A pacer replacing another skips the updates
  /// that would simulate again what the scene's state already covers (docs/host-loop.md).
  void set_policy(std::string_view name, const pacer::PolicyConfig& config);
  /// The same policy with a new config (throws as set_policy). Needs set_policy first.
  void set_pacing(const pacer::PolicyConfig& config);
  /// The target frame interval where the policy has one: adaptive's shortest interval
  /// (min_interval) and starting one, accumulator-capped's cap, swappy's swap duration,
  /// framepace's frame-time limit. false (nothing changes) for a policy without a target.
  bool set_target_interval(Nanos interval);
  /// The fixed step of fixed_update (world time). Throws std::invalid_argument unless
  /// 0 < step <= 1 h. At the next frame boundary the pacer in use takes the new step in
  /// place (pacer::Pacer::set_step): its interval, vblank grid and estimates carry on.
  void set_step(Nanos step);
  /// World time runs at `scale` x real time (the fixed step stays fixed: the updates come
  /// scale times as often). Throws std::invalid_argument unless 1/1000 <= scale <= 1000.
  /// In place at the next frame boundary, as set_step (the pacer's step is step / scale).
  void set_time_scale(double scale);
  /// World time stops at the next frame: no fixed updates, no debt, the picture holds
  /// (the same alpha), frames go on being paced, rendered and presented (update() gets dt 0).
  void pause();
  /// World time goes on from where it stopped at the next frame, with no burst of updates
  /// (the pacer kept pacing): the picture holds until the first fixed update releases it.
  void resume();
  /// Paused, or asked to be from the next frame on.
  bool paused() const { return want_paused_; }

  const pacer::Pacer* pacer() const { return pacer_.get(); }
  /// The policy's name and config as last set (set_policy, set_pacing, set_step...): what
  /// set_pacing and set_target_interval build on. Empty name: a pacer made by the host (set_pacer).
  const std::string& policy() const { return policy_; }
  const pacer::PolicyConfig& pacing() const { return config_; }
  Nanos step() const { return config_.sim.step; }
  double time_scale() const { return time_scale_; }

  /// Space toggles this: render the current state (alpha 1) instead of the blend.
  void set_interpolate(bool on) { interpolate_ = on; }
  bool interpolate() const { return interpolate_; }
  /// X toggles this: the scene renders its newest state projected to the frame's world
  /// time (FrameInfo::extrapolate) instead of the blend of the last two; the world time
  /// shown, and every pacer decision, stay the same.
  void set_extrapolate(bool on) { extrapolate_ = on; }
  bool extrapolate() const { return extrapolate_; }

  // ---- a render thread (docs/render-thread.md)

  /// Draw and present on a thread of the loop's own from the next frame on, while the
  /// fixed updates run on the calling thread (false: back on one thread). The scene must
  /// have a RenderState (Scene::make_render_state; std::logic_error otherwise), and the
  /// clock must run by itself (the present hold waits on it there).
  void set_render_thread(bool on);
  bool render_thread() const { return want_render_thread_; }
  /// Runs `fn` where the target may be touched (a resize, a capture, a device query): at
  /// once on one thread; with a render thread, on the calling thread once the render
  /// thread is idle (before the next frame's acquire, or in finish()).
  void when_target_idle(std::function<void()> fn);
  /// Circles drawn on top of every frame (the pacing overlay), or nullptr; the pointee
  /// must live while set. Read (copied, with a render thread) at each frame's render.
  void set_overlay(const std::vector<Circle>* shapes) { overlay_ = shapes; }

  // ---- input, hooks, stats

  /// An input event for the scene: delivered to Scene::on_input at the next frame.
  void push_input(const InputEvent& event) { input_.push_back(event); }

  /// Platform events once a frame, before the frame's render; false quits.
  std::function<bool()> poll;
  /// Each completed frame record, in order (frame numbers count across policy switches).
  std::function<void(const pacer::FrameRecord&)> on_record;
  /// After each frame's present, with its plan (status lines, captures).
  std::function<void(const pacer::FramePlan&)> on_presented;

  /// fps, p99 frame time, p99 animation error, stutters over the latest frames.
  const RollingStats& stats() const { return stats_; }
  /// Frames in the rolling window (drops what it holds).
  void set_stats_window(std::size_t frames) { stats_.reset(frames); }

  // ---- running

  /// Runs frames until a limit, poll() or a closed window stops it; then finish().
  RunResult run(const RunLimits& limits);
  /// One frame, step-wise: the previous frame's updates and waits, poll(), then render and
  /// present. false: poll() or the target (a window closed while minimized) quit, and no
  /// frame was presented by this call. Call finish() when done.
  bool frame();
  /// One step that never waits: runs what is due at now() and returns when the next thing
  /// is due. A call presents at most one frame: the previous frame's updates, poll(), the
  /// render and the present (when it is due), then the frame's updates; it returns at the
  /// first wait or hold whose deadline is still ahead (`next` = that deadline) or, after a
  /// present, when the pacer asks for the next frame at once (`next` = now()). A call
  /// before `next` does nothing and returns the same `next`. The pacer sees the protocol
  /// calls frame() makes (a wait or hold is taken as woken when the call comes, at or
  /// after its deadline): a host calling back at each `next` writes run()'s log. frame(),
  /// run() and finish() may follow (they wait for what is pending). The target's acquire()
  /// is the host's: it should not block here.
  PumpResult pump();
  /// Ends a step-wise run: closes the last frame and hands every record to on_record (a
  /// present pump() left held is made at once).
  void finish();
  /// Frames presented by frame() / run() since the loop was made.
  std::int64_t frames() const { return driver_->frames(); }
  /// The latest frame as the scene saw it.
  const FrameInfo& last_frame() const { return info_; }

  /// The loop's time: the clock's, held where the clock stepped backwards.
  Nanos now();
  /// How many times the clock was seen stepping backwards.
  std::int64_t clock_steps_back() const { return clock_steps_back_; }

 private:
  class Host;
  /// Applies the changes asked for since the last frame (pacer, pause, step and scale).
  void apply_changes();
  /// A pacer for config_ at time_scale_; `seed` carries the interval in force over.
  std::unique_ptr<pacer::Pacer> build(bool seed) const;
  /// The pacer's step for config_.sim.step at time_scale_.
  Nanos real_step() const;
  /// The world time one pacer update of `step` advances.
  Nanos world_step(Nanos step) const;
  void render(const pacer::FramePlan& plan);
  /// Hands `f` to the render thread with a copy of the scene's state.
  void post_render(const FrameInfo& f, const pacer::FramePlan& plan);
  /// Waits for the render thread to be idle (if any) and runs the calls queued for then.
  void target_idle();
  void update(Nanos step);

  const Clock& clock_;
  Waiter& waiter_;
  FrameTarget& target_;
  Scene& scene_;
  std::unique_ptr<pacer::Pacer> pacer_, next_pacer_;
  std::string policy_;
  pacer::PolicyConfig config_{};
  double time_scale_ = 1.0;
  Nanos pacer_step_{0};         ///< the step of the pacer in use (real time): world step / time scale
  Nanos next_step_{0};          ///< the step of next_pacer_
  bool restep_ = false;         ///< the step or time_scale_ changed: the pacer's step at the next boundary
  double applied_scale_ = 1.0;  ///< time_scale_ as of the last boundary (the updates until the next)
  Nanos applied_world_step_{0};  ///< config_.sim.step as of the last boundary
  bool paused_ = false, want_paused_ = false;
  bool hold_next_ = false;      ///< hold the picture of the next frame (pause)
  bool holding_ = false;        ///< the picture holds (alpha, world time) until the next fixed update
  double held_alpha_ = 1.0;
  Nanos held_world_{0};
  Nanos pacer_sim_{0};          ///< the pacer's simulation time (its current state), as tracked
  Nanos skip_until_{Nanos::min()};  ///< a fresh pacer's updates up to here are already simulated
  bool interpolate_ = true;
  bool rendered_ = false;       ///< a frame was presented and its actions are still to run
  bool presenting_ = false;     ///< pump() left a frame rendered, its present held (driver suspended)
  Nanos world_previous_{0}, world_current_{0};
  Nanos last_start_{-1};
  FrameInfo info_{};
  std::vector<InputEvent> input_;
  RollingStats stats_;
  Nanos offset_{0};                          ///< loop time - clock time (backward steps absorbed)
  Nanos latest_{Nanos::min()};               ///< the latest loop time handed out
  std::int64_t clock_steps_back_ = 0;
  DrawList draw_;
  bool extrapolate_ = false;
  bool want_render_thread_ = false;
  const std::vector<Circle>* overlay_ = nullptr;
  std::vector<std::function<void()>> idle_calls_;  ///< when_target_idle's, waiting for the render thread
  std::unique_ptr<RenderThread> render_thread_;
  std::unique_ptr<Host> host_;
  std::unique_ptr<pacer::FrameDriver> driver_;
};

}  // namespace engine
