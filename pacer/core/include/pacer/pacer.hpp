// pacer/pacer.hpp - the step-wise protocol every pacing policy speaks.
//
// The loop asks the pacer "what now?", passing the current time on every call;
// the pacer never reads a clock, sleeps or logs. One real-time loop (engine/)
// and one virtual-time simulator (pacer/simulator.hpp) drive any policy.
//
//   auto pacer = pacer::make_pacer("adaptive", {});  // pacer/policies.hpp
//   for (;;) {
//     pacer::FramePlan plan = pacer->begin_frame(now());
//     render(plan.alpha);                       // lerp(previous, current, alpha)
//     pacer->end_render(now());                 // may widen the interval; work ends here
//     if (plan.present_at > now()) { pacer::Nanos t = now(); wait_until(plan.present_at); pacer->hold_present(t, now()); }
//     pacer::Nanos issued = now(); present(); pacer->set_presentation(issued, now(), std::nullopt, pacer::TimingSource::cpu);
//     if (auto done = pacer->take_record()) log(*done);   // the previous frame, complete
//     for (bool more = true; more;) {
//       pacer::Action act = pacer->next(now());
//       switch (act.kind) {
//         case pacer::ActionKind::update: world.update(act.step); pacer->end_update(now()); break;
//         case pacer::ActionKind::wait:   waiter.wait_until(act.until); pacer->observe_wake(act.until, now()); break;
//         case pacer::ActionKind::render: more = false; break;
//       }
//     }
//     if (new_step) pacer->set_step(*new_step); // between frames: a new fixed step, the state kept
//   }
//
// (tests/docs/example_pacer_hpp.cpp runs this example as it is written here.)
// pacer::FrameDriver (pacer/frame_driver.hpp) runs exactly this order for a loop that
// implements pacer::FrameHost; the engine's loop and the simulator both use it.
//
// Time passed to the protocol calls never goes backwards for the policy: an earlier time
// than one already seen (a clock stepped back) is taken as the latest one, so records
// never hold negative durations and no policy sees a frame end in its past. A step forward
// is a stall: the stall clamp (discard) and the step cap bound the updates it causes.
//
// Rules every policy keeps (tests check them): alpha in (0, 1] for the adaptive
// policies and [0, 1) for the accumulator baselines; simulated + pending +
// dropped == elapsed exactly; the same times give the same plans; updates per
// frame never exceed the cap; rendering never changes world state.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "pacer/fixed_step.hpp"
#include "pacer/time.hpp"

namespace pacer {

enum class ActionKind { update, wait, render };

/// The pacer's answer to "what now?".
struct Action {
  ActionKind kind = ActionKind::render;
  Nanos step{0};   ///< update: simulation time this update advances the world by
  Nanos until{0};  ///< wait: the absolute deadline to wait for
};

/// Bit flags for what happened to the interval (or the simulation) during a frame.
enum IntervalEvent : unsigned {
  event_none = 0,
  event_widen = 1u << 0,
  event_shrink = 1u << 1,
  event_quantize = 1u << 2,
  event_stall_clamp = 1u << 3,
  event_step_cap = 1u << 4,
};
/// "none", or the event names joined by ';' in the order of the enum.
std::string format_events(unsigned events);
/// The bits of a format_events() text ("none", "widen;step_cap", ...); nullopt for an unknown name.
std::optional<unsigned> parse_events(std::string_view text);

/// Where a frame's presentation times came from.
enum class TimingSource { virtual_time, cpu, present_wait };
std::string_view to_string(TimingSource source);
/// The source named by to_string() ("virtual", "cpu", "present_wait"); nullopt otherwise.
std::optional<TimingSource> parse_timing_source(std::string_view text);

/// What the pacer decided at the start of a frame: what to render.
struct FramePlan {
  std::int64_t frame = 0;
  Nanos start{0};            ///< the time begin_frame was called
  Nanos planned_start{0};    ///< when the policy meant the frame to start (= start if it plans none)
  Nanos interval{0};         ///< the interval the frame starts planned with (Pacer::planned_interval() then)
  Nanos sim_previous{0};
  Nanos sim_current{0};
  double alpha = 1.0;        ///< render lerp(previous, current, alpha)
  Nanos animation_time{0};   ///< the world time this frame shows
  bool interpolate = true;   ///< false for policies that show the current state as is
  /// Hold the present until this time (planned presents); negative: present at once.
  Nanos present_at{-1};
};

/// One rendered frame, complete: the row of the pacing log (docs/log-format.md).
struct FrameRecord {
  std::int64_t frame = 0;
  std::string_view policy;
  TimingSource timing_source = TimingSource::virtual_time;
  Nanos cpu_start{0};
  Nanos planned_start{0};
  Nanos interval{0};
  Nanos render{0};           ///< CPU time of the render (record, submit, present call)
  std::int64_t sim_steps = 0;
  Nanos update{0};           ///< CPU time of those updates
  Nanos pacer_wait{0};       ///< time spent deliberately waiting before the next frame
  Nanos present{0};          ///< when the present call returned
  std::optional<Nanos> display;  ///< when the frame became visible, if known
  Nanos sim_previous{0};
  Nanos sim_current{0};
  double alpha = 1.0;
  Nanos animation_time{0};
  unsigned events = event_none;
  Nanos dropped{0};          ///< simulation debt discarded during this frame
  /// The workload's render cost for this frame (ms), where the driver knows it: the
  /// `load_ms` column after the native ones, NA otherwise. Not used by any policy.
  std::optional<double> load_ms;
  /// When the policy planned the present (FramePlan::present_at); nullopt when it planned
  /// none: the `present_planned_ms` column.
  std::optional<Nanos> present_planned;
  /// When the present call was made, after any hold: the `present_issued_ms` column.
  Nanos present_issued{0};
  /// GPU time of the frame's work (the loop's timestamp queries around its command buffer):
  /// the `ms_gpu` column; nullopt (NA) where the loop measures none (the simulator, a null
  /// target, a device without timestamps) or the result was not available.
  std::optional<Nanos> gpu;
};

/// Exact bookkeeping of simulation time: simulated + pending + dropped == elapsed.
struct TimeAccount {
  Nanos elapsed{0};    ///< world-clock time the simulation is meant to have covered
  Nanos simulated{0};  ///< sum of all update steps
  Nanos pending{0};    ///< not yet simulated (negative: simulated ahead, as the adaptive policy does)
  Nanos dropped{0};    ///< discarded debt
};

namespace detail {
/// Throws std::invalid_argument("<what> must be <rule>, got <value>").
[[noreturn]] void config_error(std::string_view what, std::string_view rule, std::string_view value);
std::string format_value(Nanos value);   ///< "16666667 ns"
std::string format_value(double value);  ///< %g
std::string format_value(std::int64_t value);
}  // namespace detail

/// Base of every policy. The public protocol functions keep the frame record;
/// the virtual on_* hooks are the policy.
class Pacer {
 public:
  virtual ~Pacer() = default;
  Pacer(const Pacer&) = delete;
  Pacer& operator=(const Pacer&) = delete;

  /// Starts a frame at `now`; closes the previous one (take_record() then returns it).
  FramePlan begin_frame(Nanos now);
  /// The render (record, submit, present call) finished at `now`.
  void end_render(Nanos now);
  /// What now? Call after end_render, after each end_update and after each wait.
  Action next(Nanos now);
  /// The update announced by next() finished at `now`.
  void end_update(Nanos now);
  /// The loop held the present of the current frame (FramePlan::present_at) from `from`
  /// to `woke`: a deliberate wait, not work (ms_pacer_wait). Also a wake observation.
  void hold_present(Nanos from, Nanos woke);
  /// Presentation times of the current frame: the present call was made at `issued`
  /// (after any hold) and returned at `returned` (its duration counts as render work);
  /// `display` when the frame became visible, if known; where the times came from.
  void set_presentation(Nanos issued, Nanos returned, std::optional<Nanos> display, TimingSource source);
  /// The same with a present call that took no time (issued = returned = present).
  void set_presentation(Nanos present, std::optional<Nanos> display, TimingSource source) {
    set_presentation(present, present, display, source);
  }
  /// A wait for `deadline` returned at `woke`: policies learn the waiter's wake error
  /// (how late a deliberate wake may be without the frame counting as late).
  void observe_wake(Nanos deadline, Nanos woke) { on_observe_wake(deadline, woke); }
  /// Feedback from the display: frame `frame` became visible at `display` (a virtual
  /// display, a present-wait or present-timing query). Call it once per shown frame, in
  /// order, once the time is known (it may lag by a frame or two). Policies that plan
  /// presents use it to find the vblank grid and count missed displays; others ignore it.
  /// A report for a frame not yet begun, or more than display_report_slack after the latest
  /// time passed to the protocol (a time not yet come), is no display time: refused with a
  /// std::logic_error when protocol checks are on, else ignored.
  void observe_display(std::int64_t frame, Nanos display);
  /// How far past the latest protocol time a reported display may lie (a FIFO queue at 1 Hz
  /// shows a frame up to a few seconds after its present).
  static constexpr Nanos display_report_slack{10'000'000'000};
  /// Feedback from the GPU: the work of frame `frame` took `gpu` on the GPU (timestamp
  /// queries), learnt once its fence signalled (a frame or two later), in order. The
  /// default ignores it; a policy may fold max(CPU render, GPU time) into its render
  /// estimate (docs/pacing.md, GPU time).
  void observe_gpu(std::int64_t frame, Nanos gpu) { on_observe_gpu(frame, gpu); }
  /// The frames' renders run off the loop's thread (a render thread) from the next frame
  /// on: end_render() is when the frame was handed over; the render thread starts it then
  /// (once its previous present is made), holds its present until FramePlan::present_at,
  /// and its work until ready to present arrives through observe_gpu(). A policy that plans
  /// presents keeps room for that work after the previous present (docs/render-thread.md).
  /// Call it between frames; the default ignores it.
  void set_render_off_thread(bool on) { on_set_render_off_thread(on); }
  /// The record of the frame closed by the latest begin_frame() or finish(), once.
  std::optional<FrameRecord> take_record();
  /// Ends the run at `now`: closes the open frame; take_record() then returns it.
  void finish(Nanos now);

  /// The fixed step of the updates from the next one on (a step or time-scale change at a
  /// frame boundary), in place: the policy keeps its interval, vblank grid, estimates and
  /// accumulated time, and simulated + pending + dropped == elapsed still holds (the time
  /// owed is simply covered in the new step). Call it between frames: before the first
  /// begin_frame(), after finish(), or after next() answered render; anywhere else it
  /// throws std::logic_error (checks on or off). Throws std::invalid_argument unless
  /// 0 < step <= 1 h, as validate(FixedStepConfig). false: the policy cannot change its
  /// step in place (nothing changed: make a new pacer); every registered policy can.
  bool set_step(Nanos step);

  std::string_view name() const { return name_; }

  /// Protocol order checks: a call out of the order above (end_render() without
  /// begin_frame(), next() before end_render() or during an update, end_update() without
  /// an update action, a second end_render(), next() after it answered render) throws
  /// std::logic_error naming the call and the stage. On by default where the library is
  /// built without NDEBUG (Debug builds), off otherwise (RelWithDebInfo, the default);
  /// tests and debugging sessions turn them on here. FrameDriver always keeps the order.
  /// Not a violation: begin_frame() right after end_render() or end_update() (a frame given
  /// up, FrameDriver's acquire failure) or with a wait not taken. A loop that never calls
  /// next() thus passes the checks, but no update ever runs: the world stands still
  /// (account().simulated stays 0), the sign to look for.
  void set_protocol_checks(bool on) { checks_ = on; }
  bool protocol_checks() const { return checks_; }
  /// The default of protocol_checks() for new pacers: true unless built with NDEBUG.
  static bool protocol_checks_default();

  /// Render interval currently in force (0 for policies that plan none).
  virtual Nanos interval() const = 0;
  /// The interval the current (or last) frame is planned with, as its record's interval_ms
  /// logs it: adaptive's gap from the previous frame's planned display to this one's, which
  /// its interval() (a cost it follows, the cap in some cadences) may differ from. What an
  /// overlay or a status line should show beside the log.
  Nanos planned_interval() const { return frame_interval(); }
  virtual TimeAccount account() const = 0;
  /// The simulation clock (previous/current state times, steps, dropped debt).
  virtual const FixedStepClock& clock() const = 0;

 protected:
  explicit Pacer(std::string_view name) : name_{name} {}

  virtual FramePlan on_begin_frame(Nanos now) = 0;
  virtual void on_end_render(Nanos now) = 0;
  virtual Action on_next(Nanos now) = 0;
  virtual void on_end_update(Nanos now) = 0;
  virtual void on_observe_display(std::int64_t /*frame*/, Nanos /*display*/) {}
  virtual void on_observe_wake(Nanos /*deadline*/, Nanos /*woke*/) {}
  virtual void on_observe_gpu(std::int64_t /*frame*/, Nanos /*gpu*/) {}
  virtual void on_set_render_off_thread(bool /*on*/) {}
  /// set_step(): `step` (validated) for the updates from the next one on, between frames.
  /// false (the default): the policy cannot, nothing changed.
  virtual bool on_set_step(Nanos /*step*/) { return false; }
  /// The present call of the current frame took `call` (CPU work after the render).
  virtual void on_present_call(Nanos /*call*/) {}
  /// The interval the frame in progress is planned with, for its record (interval_ms):
  /// by default the policy's interval().
  virtual Nanos frame_interval() const { return interval(); }

  /// Hooks for the policies: mark an event or dropped debt on the open frame.
  void note_event(unsigned event) { record_.events |= event; }
  void note_dropped(Nanos debt) { record_.dropped += debt; }
  std::int64_t frame_index() const { return next_frame_; }

 private:
  void close_frame(Nanos now);
  /// Where the protocol stands: before the first frame, rendering, between the render and
  /// the first next(), in an update, after a wait, or after next() answered render.
  enum class Stage { idle, render, rendered, update, wait, decided };
  /// With checks on: throws std::logic_error unless the stage is one of `allowed`.
  void expect(std::string_view call, std::initializer_list<Stage> allowed) const;
  /// `now`, or the latest time seen when `now` is earlier (a clock stepped backwards).
  Nanos monotonic(Nanos now);

  std::string_view name_;
  bool checks_ = protocol_checks_default();
  Stage stage_ = Stage::idle;
  Nanos latest_{Nanos::min()};  ///< the latest time passed to the protocol
  FrameRecord record_{};
  std::optional<FrameRecord> completed_;
  std::int64_t next_frame_ = 0;
  bool open_ = false;
  bool presentation_set_ = false;
  bool waiting_ = false;
  bool updating_ = false;
  Nanos mark_{0};  ///< start of the wait or update in progress
};

}  // namespace pacer
