// pacer/simulator.hpp - runs any policy in virtual time, deterministically.
//
// The simulator plays the loop of pacer/pacer.hpp against a virtual clock:
// a render advances it by the render cost, an update by the update cost, a
// wait jumps to the deadline (plus the modelled wake error of the waiter).
// A virtual display (pacer/display.hpp) decides when each present is shown;
// acquiring a swapchain image may block, which the loop sees as render time.
// A plan's present_at holds the present until that time. With a GPU cost
// (SimCosts::gpu) the GPU works through the frames in order after their renders
// (pacer/gpu_queue.hpp): a frame's acquire waits for the frame frames_in_flight
// earlier, a held present for its own frame, a frame is shown no sooner than its GPU
// work ends, and each GPU time is reported (FrameHost::poll_gpu) once it has ended.
// With a present cost (SimCosts::present) the present call takes time after the hold: the
// frame reaches the display when the call returns (offscreen: it is done when issued).
// With a between cost (SimCosts::between) the loop spends its own time after each present
// (a real loop's log writing and hooks), outside every record column.
// Nothing sleeps, so tests and comparisons are exact and repeatable.
//
//   using namespace std::chrono_literals;  // the time literals below (ms, ns)
//   pacer::SimCosts costs = pacer::SimCosts::fixed(3ms, 1ms);
//   pacer::SimRun run = pacer::simulate(*pacer, costs, 3);   // *pacer: pacer/policies.hpp
//   std::string tl = pacer::format_timeline(run.timeline);   // "R0 U5 U10 ... R32"
//
//   pacer::SimOptions opt;
//   opt.display = pacer::parse_display("fifo:60").value();
//   opt.waiter = pacer::WaiterKind::precise;  opt.seed = 7;
//   pacer::SimRun shown = pacer::simulate(*pacer, costs, 600, opt);   // records carry display times
//
// Long runs stream: a sink sees each record as it completes and nothing is kept, so memory
// is flat in the number of frames (pacer-sim does this with a SummaryBuilder and the log writer):
//
//   pacer::SummaryBuilder summary;
//   pacer::SimRun run = pacer::simulate(*pacer, costs, 216'000, opt,
//                                       [&](const pacer::FrameRecord& r) { summary.add(r); });
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "pacer/display.hpp"
#include "pacer/os_sleep_model.hpp"
#include "pacer/pacer.hpp"

namespace pacer {

/// CPU costs of the work the loop does, as functions of the frame and update index, and
/// the GPU time of each frame's work.
struct SimCosts {
  std::function<Nanos(std::int64_t frame)> render;
  std::function<Nanos(std::int64_t frame, std::int64_t update)> update;  ///< update: global update index
  /// The GPU time of a frame's work, done after its render and the frame before's GPU
  /// work; empty (the default): no GPU cost, nothing reported.
  std::function<Nanos(std::int64_t frame)> gpu = {};
  /// The CPU time of a frame's present call, spent after any hold of the present (the
  /// frame reaches the display when the call returns) and counted in the record's render
  /// time, as the engine's loop counts it; empty (the default): the call takes no time.
  std::function<Nanos(std::int64_t frame)> present = {};
  /// The loop's own CPU time on the way to frame `frame`: spent when the frame before's
  /// present returns, before its updates and waits (where the engine's loop writes the log
  /// and runs its hooks), in none of a record's columns. A loop that runs flat out starts
  /// each frame that much later; one that waits for a planned time waits that much less.
  /// Asked for frames 1 on; empty (the default): none.
  std::function<Nanos(std::int64_t frame)> between = {};

  static SimCosts fixed(Nanos render_cost, Nanos update_cost) {
    return {[=](std::int64_t) { return render_cost; }, [=](std::int64_t, std::int64_t) { return update_cost; }};
  }
};

/// One entry of the seed's timeline notation.
struct TimelineEntry {
  enum Kind : char { render = 'R', update = 'U', wait = 'W' } kind;
  Nanos time;  ///< R: when the render began; U: the simulation time the update reached; W: the deadline
};

/// The world around the loop: display, waiter, randomness, start time.
struct SimOptions {
  DisplaySpec display{};                    ///< PresentMode::none: display times unknown
  WaiterKind waiter = WaiterKind::exact;    ///< how late waits (and present holds) wake
  std::uint64_t seed = 1;                   ///< seeds every random draw of the run
  Nanos start{0};
  /// With a GPU cost: a frame's acquire waits until the GPU has finished the frame this
  /// many frames before it (the renderer's per-slot fences; its default is 2).
  int frames_in_flight = 2;
  /// Whether the loop hears when each frame was shown. false: the display still shows the
  /// frames (acquires block as before) but reports nothing, as a windowed present with no
  /// present-wait extension (the engine on lavapipe): records carry no display time.
  bool display_times = true;
  /// Keep SimRun::timeline (it grows with the run: a few entries per frame). Off by default;
  /// the seed's overload (start time only) turns it on.
  bool timeline = false;
};

/// Sees each frame's record as it completes (valid during the call only).
using RecordSink = std::function<void(const FrameRecord&)>;

struct SimRun {
  std::vector<FrameRecord> records;         ///< empty when the run went to a sink
  std::vector<TimelineEntry> timeline;      ///< empty unless SimOptions::timeline
  Nanos end{0};
  Nanos acquire_blocked{0};    ///< total time the loop spent blocked acquiring an image
  std::int64_t replaced = 0;   ///< mailbox: frames replaced before they were shown
};

/// The display the simulator runs for `options`: its spec with the jitter draws seeded
/// from options.seed (apart from the waiter's draws). A loop that replays a simulation
/// (the engine's equivalence test) builds its DisplayModel from it.
DisplaySpec sim_display(const SimOptions& options);

/// Renders `frames` frames; the run stops right after the last render (its
/// record has no updates or wait). Without a display, present = end of render and
/// display is unknown; with one, FrameRecord::display is when the frame was shown
/// (nullopt for a frame mailbox replaced). Collects every record: for tests and short runs.
SimRun simulate(Pacer& pacer, const SimCosts& costs, std::int64_t frames, const SimOptions& options);

/// The same run, each record handed to `sink` as it completes and none kept (records stays
/// empty): memory does not grow with `frames` (unless options.timeline).
SimRun simulate(Pacer& pacer, const SimCosts& costs, std::int64_t frames, const SimOptions& options,
                const RecordSink& sink);

/// The seed's virtual time: no display, exact waits, starting at `start`; keeps the timeline.
SimRun simulate(Pacer& pacer, const SimCosts& costs, std::int64_t frames, Nanos start = Nanos::zero());

/// "R0 U5 U10 U15 U20 W16 R16": times in milliseconds, shortest exact decimal.
std::string format_timeline(std::span<const TimelineEntry> timeline);

/// Milliseconds with trailing zeros trimmed: 16 -> "16", 16.5 -> "16.5", 1 ns -> "0.000001".
std::string format_ms_short(Nanos t);

}  // namespace pacer
