// pacer/frame_driver.hpp - the calls of one frame, in their order, for every loop.
//
// A loop (the engine's real-time loop, the virtual-time simulator, a game's own loop)
// implements FrameHost: its clock and the work of a frame. FrameDriver makes the
// pacer's calls around that work in one fixed order, so two loops that share it cannot
// drive a policy differently:
//
//   poll displays -> begin_frame -> acquire -> render -> end_render
//   -> hold the present until plan.present_at (a wait, never work) -> present
//   -> set_presentation(issued, returned, display) -> [next: update | wait]* -> render
//
// Records come out through the sink in frame order, each once the display time and the
// GPU time are known (or the host reports none, or `display_patience` later frames have
// been presented),
// and never before the next frame's present (a mailbox may still replace it).
//
//   // MyHost: the loop's pacer::FrameHost (its clock, acquire, render, present, update, wait)
//   MyHost host;
//   pacer::FrameDriver driver{host, [&](const pacer::FrameRecord& r) { log.write(r); }};
//   auto pacer = pacer::make_pacer("adaptive", cfg);        // pacer/policies.hpp
//   driver.use(*pacer);
//   for (int i = 0; i < 600; ++i) {
//     if (!driver.render_frame()) break;                    // false: the host gave up (window closed)
//     if (i + 1 < 600) driver.run_actions();                // updates and waits until the next frame
//   }
//   driver.finish();                                        // closes the last frame, flushes every record
//
// Or without ever waiting, for a host that must return at once (a browser's
// requestAnimationFrame callback, an editor's idle handler): the same calls in the same
// order, stopping where the blocking path would wait and resuming when called again.
//
//   using Stop = pacer::FrameDriver::Stop;
//   Stop s = driver.render_due();                           // presented, or hold: due() is when to call again
//   if (s == Stop::presented) s = driver.actions_due();     // updates; render (next frame due now) or wait until due()
//   // called again at or after due(): the hold or wait counts as woken then (observe_wake)
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>

#include "pacer/pacer.hpp"

namespace pacer {

/// What a present did, as far as the host knows at once.
struct PresentResult {
  std::optional<Nanos> display;            ///< when the frame is shown, if known now (a virtual display)
  std::optional<std::int64_t> replaced;    ///< an earlier frame this present replaced (never shown)
};

/// The loop around the driver: its clock and the work of a frame.
class FrameHost {
 public:
  virtual ~FrameHost() = default;
  /// The loop's clock: nanoseconds since the run start.
  virtual Nanos now() = 0;
  /// Get an image to draw into (may block). false: nothing can be drawn now (a minimized
  /// window); the driver then calls wait_until_ready() and tries again.
  virtual bool acquire() = 0;
  /// Blocks until acquire() may succeed; false: give up (the window was closed).
  virtual bool wait_until_ready() { return true; }
  /// Record and submit the frame of `plan` (render the world at plan.alpha).
  virtual void render(const FramePlan& plan) = 0;
  /// Present the frame; `frame` is the loop's frame index (across pacers).
  virtual PresentResult present(std::int64_t frame) = 0;
  /// Run one fixed update of `step`.
  virtual void update(Nanos step) = 0;
  /// Return at or after `deadline` (at once when it has passed).
  virtual void wait_until(Nanos deadline) = 0;
  /// Hold the present until `deadline`: the same waiter (default), kept apart so a host
  /// can tell the two waits apart (the simulator's timeline lists only pacer waits).
  virtual void hold_until(Nanos deadline) { wait_until(deadline); }
  /// Where presentation times come from (virtual, cpu, present_wait).
  virtual TimingSource timing_source() const = 0;
  /// true when display times arrive later through poll_displays() (present wait).
  virtual bool reports_display() const { return false; }
  /// Hands over (loop frame index, display time) pairs learnt since the last call.
  virtual void poll_displays(const std::function<void(std::int64_t, Nanos)>& /*sink*/) {}
  /// true when GPU times of frames arrive later through poll_gpu() (timestamp queries).
  virtual bool reports_gpu() const { return false; }
  /// Hands over (loop frame index, GPU time) pairs learnt since the last call.
  virtual void poll_gpu(const std::function<void(std::int64_t, Nanos)>& /*sink*/) {}
  /// For frames drawn off the loop's thread (a render thread): hands over (loop frame index,
  /// the render work there until the frame was ready to present) as they finish. The pacer
  /// takes it as that frame's work, as a GPU time (Pacer::observe_gpu); the log does not.
  virtual void poll_render_done(const std::function<void(std::int64_t, Nanos)>& /*sink*/) {}
  /// true while the host renders and presents off the loop's thread (poll_render_done
  /// reports those frames): the pacer is told before each frame (Pacer::set_render_off_thread).
  virtual bool renders_off_thread() const { return false; }
  /// The workload's render cost of the frame just rendered (load_ms), if known.
  virtual std::optional<double> load_ms() const { return std::nullopt; }
};

class FrameDriver {
 public:
  using Sink = std::function<void(const FrameRecord&)>;
  /// A frame whose display time has not arrived after this many later presents is logged without it.
  static constexpr std::size_t display_patience = 8;

  FrameDriver(FrameHost& host, Sink sink) : host_{host}, sink_{std::move(sink)} {}

  /// Drive `pacer` from the next frame on (the pacer must outlive its use). A pacer in
  /// use before is finished at this boundary (a present a non-blocking call left held is
  /// presented first, a pending wait ends); frame numbers continue across pacers. The
  /// frame calls below throw std::logic_error before any use().
  void use(Pacer& pacer);
  Pacer* pacer() const { return pacer_; }

  /// begin_frame, acquire, render, end_render, hold, present, set_presentation.
  /// false: the host gave up while acquiring (the frame's render is ended, nothing presented).
  bool render_frame();
  /// The pacer's update and wait actions until it says the next frame renders.
  void run_actions();

  // ---- non-blocking: never calls wait_until or hold_until (acquire is the host's)

  /// Where a non-blocking call stopped.
  enum class Stop {
    presented,  ///< render_due(): the frame is presented; its actions come next (actions_due())
    hold,       ///< render_due(): the present is held until due(): call render_due() again then
    gave_up,    ///< render_due(): the host gave up while acquiring (as render_frame() false)
    wait,       ///< actions_due(): the pacer waits until due(): call actions_due() again then
    render,     ///< actions_due(): the pacer says the next frame renders now (render_due())
  };
  /// render_frame() without the hold: begin_frame ... end_render, then the present unless
  /// it is planned for later (hold). Called again with a hold pending: before due() it does
  /// nothing (hold again); at or after it, hold_present(from, now) and the present.
  Stop render_due();
  /// run_actions() without the waits: updates until the pacer says render, or waits for a
  /// deadline still ahead (wait). Called again with a wait pending: before due() it does
  /// nothing (wait again); at or after it, observe_wake(deadline, now) and on.
  Stop actions_due();
  /// The deadline of the pending hold or wait.
  Nanos due() const { return due_; }
  /// A hold (render_due) or a wait (actions_due) is pending. The blocking calls finish it
  /// first (render_frame() holds and presents, run_actions() waits); finish() presents a
  /// held frame at once.
  bool suspended() const { return suspended_ != Suspended::none; }
  /// Ends the run: closes the open frame and hands every remaining record to the sink.
  void finish();
  /// A run cut short (the host threw): hands the records of the frames already presented
  /// to the sink; the open frame, never presented, is not closed.
  void flush_presented() { release_records(true); }

  /// Frames presented so far (across pacers).
  std::int64_t frames() const { return frame_; }
  /// The plan of the latest frame.
  const FramePlan& plan() const { return plan_; }

 private:
  /// deliver displays, begin_frame, acquire, render, end_render; false: the host gave up.
  bool begin_render();
  /// The present at once (after any hold): set_presentation, records.
  void present_now();
  void deliver_displays();
  void deliver_gpu();
  void take_record();
  void release_records(bool all);

  FrameHost& host_;
  Sink sink_;
  Pacer& in_use() const;  ///< *pacer_, or std::logic_error before use()
  Pacer* pacer_ = nullptr;
  FramePlan plan_{};
  std::int64_t frame_ = 0;        ///< the loop's index of the next frame
  std::int64_t first_ = 0;        ///< the loop's index of the current pacer's frame 0
  std::int64_t presented_ = -1;   ///< the loop's index of the latest frame presented
  std::deque<FrameRecord> pending_;  ///< records waiting for their display time (loop frame numbers)
  struct Shown {
    std::int64_t frame;
    Nanos at;
  };
  std::deque<Shown> early_;       ///< display times of frames whose record is not taken yet
  std::deque<Shown> early_gpu_;   ///< GPU times (in `at`) of frames whose record is not taken yet
  std::int64_t taken_ = -1;       ///< the loop's index of the latest record taken
  std::deque<Shown> unseen_;      ///< display times the pacer has not been told (virtual displays: until now reaches them)
  enum class Suspended { none, hold, wait };
  Suspended suspended_ = Suspended::none;  ///< a non-blocking call stopped at a hold or a wait
  Nanos due_{0};                  ///< its deadline
  Nanos hold_from_{0};            ///< when the pending hold began (hold_present's `from`)
};

}  // namespace pacer
