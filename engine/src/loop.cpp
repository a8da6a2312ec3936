#include "engine/loop.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "render_thread.hpp"

namespace engine {

namespace {

Nanos scaled(Nanos d, double k) { return Nanos{std::llround(static_cast<double>(d.count()) * k)}; }

constexpr Nanos kMaxStep{3'600'000'000'000};  // an hour, as pacer::validate(FixedStepConfig)

}  // namespace

/// The loop as the frame driver's host: the real (or manual) clock, the waiter, the
/// frame target and the scene.
class Loop::Host final : public pacer::FrameHost {
 public:
  explicit Host(Loop& loop) : loop_{loop} {}
  Nanos now() override { return loop_.now(); }
  bool acquire() override {
    loop_.target_idle();  // a render thread leaves the target alone from here to the next post
    return loop_.target_.acquire();
  }
  bool wait_until_ready() override { return loop_.target_.wait_until_ready(); }
  void render(const pacer::FramePlan& plan) override { loop_.render(plan); }
  pacer::PresentResult present(std::int64_t frame) override {
    if (loop_.render_thread_) return {};  // the render thread presents; its times come through poll_displays
    pacer::PresentResult shown = loop_.target_.present(frame);
    if (shown.display) *shown.display += loop_.offset_;  // the clock's time -> the loop's
    return shown;
  }
  void update(Nanos step) override { loop_.update(step); }
  // The waiter waits on the clock itself: the loop's deadline less the offset.
  void wait_until(Nanos deadline) override { loop_.waiter_.wait_until(deadline - loop_.offset_); }
  // With a render thread the hold is the render thread's (before its present).
  void hold_until(Nanos deadline) override {
    if (!loop_.render_thread_) wait_until(deadline);
  }
  pacer::TimingSource timing_source() const override { return loop_.target_.timing_source(); }
  // A render thread reports every frame's display time: the target's, or when its present returned.
  bool reports_display() const override { return loop_.render_thread_ || loop_.target_.reports_display(); }
  void poll_displays(const std::function<void(std::int64_t, Nanos)>& sink) override {
    if (loop_.render_thread_) return hand_over(displays_, sink);
    const Nanos offset = loop_.offset_;
    loop_.target_.drain_displayed([&](std::int64_t frame, Nanos shown) { sink(frame, shown + offset); });
  }
  bool reports_gpu() const override { return loop_.target_.reports_gpu(); }
  void poll_gpu(const std::function<void(std::int64_t, Nanos)>& sink) override {
    if (loop_.render_thread_) return hand_over(gpu_, sink);
    loop_.target_.drain_gpu(sink);
  }
  void poll_render_done(const std::function<void(std::int64_t, Nanos)>& sink) override {
    if (loop_.render_thread_) hand_over(ready_, sink);
  }
  bool renders_off_thread() const override { return loop_.render_thread_ != nullptr; }
  std::optional<double> load_ms() const override {
    if (const double load = loop_.scene_.load_ms(); load > 0) return load;
    return std::nullopt;
  }

 private:
  /// What the render thread learnt, all kinds at once; `kind`'s part goes to `sink`.
  void hand_over(std::vector<RenderThread::Learnt>& kind, const std::function<void(std::int64_t, Nanos)>& sink) {
    loop_.render_thread_->drain(displays_, gpu_, ready_);
    for (const RenderThread::Learnt& l : kind) sink(l.frame, l.at);
    kind.clear();
  }
  Loop& loop_;
  std::vector<RenderThread::Learnt> displays_, gpu_, ready_;  ///< learnt by the render thread, not yet handed over
};

Loop::Loop(const Clock& clock, Waiter& waiter, FrameTarget& target, Scene& scene)
    : clock_{clock}, waiter_{waiter}, target_{target}, scene_{scene}, host_{std::make_unique<Host>(*this)},
      driver_{std::make_unique<pacer::FrameDriver>(*host_, [this](const pacer::FrameRecord& r) {
        stats_.add(r);
        if (on_record) on_record(r);
      })} {
  scene_.attached(*this);
}

Loop::~Loop() = default;  // a render thread finishes its job and is joined

Nanos Loop::now() {
  Nanos t = clock_.now() + offset_;
  if (t < latest_) {
    // The clock stepped backwards: the loop's time holds (the step becomes a zero-length
    // gap) and goes on from there; the waiter's deadlines move with it.
    offset_ += latest_ - t;
    t = latest_;
    ++clock_steps_back_;
  }
  latest_ = t;
  return t;
}

// ------------------------------------------------------------------ policy and config

void Loop::set_pacer(std::unique_ptr<pacer::Pacer> pacer) {
  next_pacer_ = std::move(pacer);
  policy_.clear();  // the loop cannot rebuild a pacer it did not make
  time_scale_ = 1.0;
  restep_ = false;
  next_step_ = Nanos{0};  // unknown: world steps are the pacer's own
}

Nanos Loop::real_step() const {
  // The pacer paces real time: one world step of `step` is step / scale of it.
  if (time_scale_ == 1.0) return config_.sim.step;
  return std::max(Nanos{1}, scaled(config_.sim.step, 1.0 / time_scale_));
}

std::unique_ptr<pacer::Pacer> Loop::build(bool seed) const {
  pacer::PolicyConfig c = config_;
  c.sim.step = real_step();
  if (seed && pacer_ && pacer_->interval() > Nanos::zero())
    c.adaptive.initial_interval = std::clamp(pacer_->interval(), c.adaptive.min_interval, c.adaptive.max_interval);
  return pacer::create_pacer(policy_, c);
}

void Loop::set_policy(std::string_view name, const pacer::PolicyConfig& config) {
  // Copies first: `name` and `config` may be this loop's own (set_policy(p, loop.pacing())).
  std::string new_policy{name};
  pacer::PolicyConfig new_config = config;
  const std::string old_policy = std::exchange(policy_, std::move(new_policy));
  const pacer::PolicyConfig old_config = std::exchange(config_, std::move(new_config));
  try {
    next_pacer_ = build(false);  // throws for an unknown name or a refused config
  } catch (...) {
    policy_ = old_policy;
    config_ = old_config;
    throw;
  }
  next_step_ = real_step();
  restep_ = false;  // built with the step and scale in force
}

void Loop::set_pacing(const pacer::PolicyConfig& config) {
  if (policy_.empty()) throw std::logic_error("engine::Loop::set_pacing: no policy set by name (set_policy)");
  set_policy(std::string{policy_}, config);
}

bool Loop::set_target_interval(Nanos interval) {
  if (policy_.empty()) throw std::logic_error("engine::Loop::set_target_interval: no policy set by name (set_policy)");
  pacer::PolicyConfig c = config_;
  if (policy_.starts_with("adaptive")) {
    c.adaptive.min_interval = interval;
    c.adaptive.initial_interval = interval;
    c.adaptive.max_interval = std::max(c.adaptive.max_interval, interval);
  } else if (policy_ == "accumulator-capped") {
    c.capped_interval = interval;
  } else if (policy_ == "swappy") {
    c.swappy.swap_duration = interval;
  } else if (policy_ == "framepace") {
    c.framepace.frametime_limit = interval;
  } else {
    return false;  // accumulator, flipcode, variable: no frame-rate target
  }
  set_pacing(c);
  return true;
}

void Loop::set_step(Nanos step) {
  if (policy_.empty()) throw std::logic_error("engine::Loop::set_step: no policy set by name (set_policy)");
  if (step <= Nanos::zero() || step > kMaxStep)
    pacer::detail::config_error("step", "in (0, 1 h]", pacer::detail::format_value(step));
  if (step == config_.sim.step) return;
  const Nanos old = std::exchange(config_.sim.step, step);
  try {
    (void)build(false);  // refused here, not at the frame boundary
  } catch (...) {
    config_.sim.step = old;
    throw;
  }
  restep_ = true;
}

void Loop::set_time_scale(double scale) {
  if (policy_.empty()) throw std::logic_error("engine::Loop::set_time_scale: no policy set by name (set_policy)");
  if (!(scale >= 1e-3 && scale <= 1e3))
    pacer::detail::config_error("time scale", "in [0.001, 1000]", pacer::detail::format_value(scale));
  if (scale == time_scale_) return;
  const double old = std::exchange(time_scale_, scale);
  try {
    (void)build(false);
  } catch (...) {
    time_scale_ = old;
    throw;
  }
  restep_ = true;
}

void Loop::set_render_thread(bool on) {
  if (on && !scene_.make_render_state())
    throw std::logic_error("engine::Loop::set_render_thread: the scene has no RenderState (Scene::make_render_state)");
  want_render_thread_ = on;
}

void Loop::when_target_idle(std::function<void()> fn) {
  if (!render_thread_) {
    fn();
    return;
  }
  idle_calls_.push_back(std::move(fn));
}

void Loop::target_idle() {
  if (render_thread_) render_thread_->wait_idle();
  auto calls = std::exchange(idle_calls_, {});
  for (auto& fn : calls) fn();
}

void Loop::pause() {
  if (policy_.empty()) throw std::logic_error("engine::Loop::pause: no policy set by name (set_policy)");
  want_paused_ = true;
}

void Loop::resume() { want_paused_ = false; }

void Loop::apply_changes() {
  if (want_render_thread_ != (render_thread_ != nullptr)) {
    if (want_render_thread_) {
      render_thread_ = std::make_unique<RenderThread>(clock_, target_, scene_);
    } else {
      // Back on one thread: the last frame drawn there is presented; its display and GPU
      // times, if not yet handed over, are dropped (its record says NA).
      target_idle();
      render_thread_.reset();
    }
  }
  if (want_paused_ != paused_) {
    paused_ = want_paused_;
    // Pause: this frame is drawn as planned, then held. Resume: the picture holds until
    // the first fixed update (the pacer ran on, so there is no debt and no burst).
    if (paused_) hold_next_ = true;
  }
  if (restep_) {
    // A step or time-scale change: the pacer to be used takes the new (real-time) step in
    // place and keeps its state (interval, vblank grid, estimates, owed time): no
    // relearning, nothing dropped. A pacer that cannot (or is not between frames: a
    // frame given up while minimized) is rebuilt, seeded with the interval in force.
    restep_ = false;
    pacer::Pacer* const to_use = next_pacer_ ? next_pacer_.get() : pacer_.get();
    bool in_place = false;
    try {
      in_place = to_use != nullptr && to_use->set_step(real_step());
    } catch (const std::logic_error&) {
      in_place = false;
    }
    if (!in_place) {
      next_pacer_ = build(true);
      next_step_ = real_step();
    } else if (to_use == pacer_.get()) {
      pacer_step_ = real_step();
    } else {
      next_step_ = real_step();
    }
  }
  if (next_pacer_) {
    if (pacer_) {
      // A fresh pacer starts its clock at this frame and would simulate again the time the
      // scene's current state already covers (the pacer in use was up to pacer_sim_): its
      // updates up to there are skipped, and the current state is shown until the first
      // update that goes past it. No burst, no step back; at most one step skipped.
      skip_until_ = pacer_sim_;
      if (!holding_) {  // (a paused picture stays as it is)
        holding_ = true;
        held_alpha_ = 1.0;
        held_world_ = world_current_;
      }
    }
    driver_->use(*next_pacer_);  // finishes the pacer in use at this boundary
    pacer_ = std::move(next_pacer_);
    pacer_step_ = next_step_;
  }
  // The world step and scale of the updates from here on (until the next boundary, even
  // when the host changes them in between).
  applied_scale_ = time_scale_;
  applied_world_step_ = config_.sim.step;
}

// ------------------------------------------------------------------ the frame

Nanos Loop::world_step(Nanos step) const {
  if (policy_.empty() || applied_scale_ == 1.0) return step;
  if (step == pacer_step_) return applied_world_step_;  // the fixed step stays fixed
  return scaled(step, applied_scale_);                  // a variable step (the variable policy)
}

void Loop::update(Nanos step) {
  pacer_sim_ += step;
  // Paused: the pacer's clock runs on (no debt, no stall), the world's does not.
  if (paused_ || pacer_sim_ <= skip_until_) return;
  skip_until_ = Nanos::min();
  holding_ = false;
  const Nanos w = world_step(step);
  world_previous_ = world_current_;
  world_current_ += w;
  scene_.fixed_update(w);
}

void Loop::render(const pacer::FramePlan& plan) {
  pacer_sim_ = plan.sim_current;
  FrameInfo f;
  f.frame = driver_->frames();
  f.start = plan.start;
  f.real_dt = last_start_ >= Nanos::zero() ? plan.start - last_start_ : Nanos::zero();
  last_start_ = plan.start;
  f.paused = paused_;
  f.time_scale = time_scale_;
  f.dt = paused_ ? Nanos::zero() : scaled(f.real_dt, time_scale_);
  f.interval = plan.interval;
  if (plan.present_at >= Nanos::zero()) f.planned_present = plan.present_at;
  f.step = !policy_.empty() ? config_.sim.step : pacer_ ? pacer_->clock().step() : Nanos::zero();
  f.world_previous = world_previous_;
  f.world_current = world_current_;
  f.plan = &plan;
  if (holding_) {
    f.alpha = held_alpha_;  // the picture holds
    f.world_time = held_world_;
  } else {
    f.alpha = interpolate_ ? plan.alpha : 1.0;
    f.world_time = world_previous_ + scaled(world_current_ - world_previous_, f.alpha);
  }
  if (hold_next_) {
    hold_next_ = false;
    holding_ = true;
    held_alpha_ = f.alpha;
    held_world_ = f.world_time;
  }
  f.extrapolate = extrapolate_;
  f.render_thread = render_thread_ != nullptr;
  info_ = f;

  std::vector<InputEvent> events;
  events.swap(input_);
  for (const InputEvent& e : events) scene_.on_input(e);
  scene_.update(f.dt, f);
  if (render_thread_) {
    post_render(f, plan);
    info_.plan = nullptr;
    return;
  }
  draw_.clear();
  scene_.render_frame(f, draw_);
  info_.plan = nullptr;
  if (overlay_) draw_.circles.insert(draw_.circles.end(), overlay_->begin(), overlay_->end());
  target_.draw(draw_);
  // A present held to a planned time must not wait behind GPU work: the frame is
  // finished first, as part of its render (the policy's render estimate includes it).
  if (plan.present_at >= Nanos::zero()) target_.wait_drawn();
}

void Loop::post_render(const FrameInfo& f, const pacer::FramePlan& plan) {
  // The render thread is idle (acquire waited for it): the back slot is this thread's.
  RenderThread::Job& job = render_thread_->next_job();
  if (!job.state) job.state = scene_.make_render_state();
  scene_.capture(f, *job.state);
  job.frame = driver_->frames();
  job.info = f;
  job.info.plan = nullptr;
  job.offset = offset_;
  job.present_at = plan.present_at >= Nanos::zero() ? plan.present_at - offset_ : Nanos{-1};
  job.overlay.clear();
  if (overlay_) job.overlay.assign(overlay_->begin(), overlay_->end());
  render_thread_->post();
}

bool Loop::frame() {
  if (!pacer_ && !next_pacer_) throw std::logic_error("engine::Loop: no pacer set");
  try {
    if (presenting_) {
      // pump() left this frame's present held: hold it here, as render_frame() would have.
      presenting_ = false;
      driver_->render_frame();
      rendered_ = true;
      if (on_presented) on_presented(driver_->plan());
      return true;
    }
    if (rendered_) {
      rendered_ = false;
      driver_->run_actions();  // the previous frame's updates and waits
    }
    if (poll && !poll()) return false;
    apply_changes();
    if (!driver_->render_frame()) return false;  // the window closed while minimized
    rendered_ = true;
    if (on_presented) on_presented(driver_->plan());
    return true;
  } catch (...) {
    // A renderer fault (device or surface lost) or a throwing hook: the frames already
    // presented still reach on_record before the exception goes on (the open one does not).
    driver_->flush_presented();
    throw;
  }
}

PumpResult Loop::pump() {
  if (!pacer_ && !next_pacer_) throw std::logic_error("engine::Loop::pump: no pacer set");
  using Stop = pacer::FrameDriver::Stop;
  PumpResult out;
  try {
    for (;;) {
      if (presenting_ || !rendered_) {
        if (!presenting_) {
          // The next frame is due: one a call.
          if (out.presented) break;
          if (poll && !poll()) {
            out.running = false;
            break;
          }
          apply_changes();
        }
        const Stop s = driver_->render_due();
        if (s == Stop::gave_up) {  // the window closed while minimized
          out.running = false;
          break;
        }
        if (s == Stop::hold) {
          presenting_ = true;
          out.next = driver_->due();
          return out;
        }
        presenting_ = false;
        rendered_ = true;
        out.presented = true;
        if (on_presented) on_presented(driver_->plan());
      }
      // The frame's updates, and its wait for the next frame.
      if (driver_->actions_due() == Stop::wait) {
        out.next = driver_->due();
        return out;
      }
      rendered_ = false;  // the pacer says render: the next frame is due now
    }
  } catch (...) {
    driver_->flush_presented();  // as frame(): the frames already presented reach on_record
    throw;
  }
  out.next = now();
  return out;
}

void Loop::finish() {
  rendered_ = false;
  presenting_ = false;  // (the driver presents a frame pump() left held)
  target_idle();  // the last frame presented, its times handed over
  driver_->finish();
}

RunResult Loop::run(const RunLimits& limits) {
  if (!pacer_ && !next_pacer_) throw std::logic_error("engine::Loop::run: no pacer set");
  RunResult result;
  const Nanos start = now();
  std::int64_t frames_this_run = 0;
  for (;;) {
    if (!frame()) {
      result.quit_requested = true;
      break;
    }
    ++frames_this_run;
    const bool frames_done = limits.max_frames > 0 && frames_this_run >= limits.max_frames;
    const bool time_done = limits.max_duration > Nanos::zero() && now() - start >= limits.max_duration;
    if (frames_done || time_done) break;
  }
  finish();
  result.frames = frames_this_run;
  result.duration = now() - start;
  return result;
}

}  // namespace engine
