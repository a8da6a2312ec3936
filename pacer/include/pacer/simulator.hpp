// pacer/simulator.hpp - runs any policy in virtual time, deterministically.
//
// The simulator plays the loop of pacer/pacer.hpp against a virtual clock:
// a render advances it by the render cost, an update by the update cost, a
// wait jumps to the deadline. Nothing sleeps, so tests and comparisons are
// exact and repeatable.
//
//   pacer::SimCosts costs = pacer::SimCosts::fixed(3ms, 1ms);
//   pacer::SimRun run = pacer::simulate(*pacer, costs, 3);
//   std::string tl = pacer::format_timeline(run.timeline);   // "R0 U5 U10 ... R32"
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "pacer/pacer.hpp"

namespace pacer {

/// CPU costs of the work the loop does, as functions of the frame and update index.
struct SimCosts {
  std::function<Nanos(std::int64_t frame)> render;
  std::function<Nanos(std::int64_t frame, std::int64_t update)> update;  ///< update: global update index

  static SimCosts fixed(Nanos render_cost, Nanos update_cost) {
    return {[=](std::int64_t) { return render_cost; }, [=](std::int64_t, std::int64_t) { return update_cost; }};
  }
};

/// One entry of the seed's timeline notation.
struct TimelineEntry {
  enum Kind : char { render = 'R', update = 'U', wait = 'W' } kind;
  Nanos time;  ///< R: when the render began; U: the simulation time the update reached; W: the deadline
};

struct SimRun {
  std::vector<FrameRecord> records;
  std::vector<TimelineEntry> timeline;
  Nanos end{0};
};

/// Renders `frames` frames starting at virtual time `start`; the run stops right
/// after the last render (its record has no updates or wait).
SimRun simulate(Pacer& pacer, const SimCosts& costs, std::int64_t frames, Nanos start = Nanos::zero());

/// "R0 U5 U10 U15 U20 W16 R16": times in milliseconds, shortest exact decimal.
std::string format_timeline(std::span<const TimelineEntry> timeline);

/// Milliseconds with trailing zeros trimmed: 16 -> "16", 16.5 -> "16.5", 1 ns -> "0.000001".
std::string format_ms_short(Nanos t);

}  // namespace pacer
