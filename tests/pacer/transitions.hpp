// The adaptive policy's state-machine tests' harness (test_state_machine.cpp, test_vrr.cpp):
// run it on a render-cost list in the simulator and collect every transition it took.
//
//   AdaptivePolicy p{config_for(opt), step_5()};
//   Traced t = run(p, opt, step_load(200, 4_ms, 100, 14_ms));
//   EXPECT_TRUE(t.saw(AdaptivePolicy::Transition::widen));
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

#include "pacer/adaptive.hpp"
#include "pacer/simulator.hpp"
#include "pacer/stats.hpp"

struct Traced {
  pacer::SimRun run;  ///< with every record
  std::vector<pacer::AdaptivePolicy::Transition> transitions;  ///< each change of decision, in order
  std::vector<pacer::AdaptivePolicy::Cadence> cadences;        ///< the cadence after each frame
  std::vector<pacer::Nanos> intervals;                         ///< the interval after each frame
  bool saw(pacer::AdaptivePolicy::Transition t) const {
    for (const auto x : transitions)
      if (x == t) return true;
    return false;
  }
};

/// Runs `render` (update 0.5 ms per 5 ms step) and collects every transition taken; each
/// must give its reason.
inline Traced run(pacer::AdaptivePolicy& p, const pacer::SimOptions& opt, const std::vector<pacer::Nanos>& render) {
  Traced out;
  pacer::SimCosts costs{[render](std::int64_t f) { return render[static_cast<std::size_t>(f)]; },
                        [](std::int64_t, std::int64_t) { return pacer::Nanos{500'000}; }};
  pacer::AdaptivePolicy::Decision last{};
  std::vector<pacer::FrameRecord> records;
  out.run = pacer::simulate(p, costs, static_cast<std::int64_t>(render.size()), opt, [&](const pacer::FrameRecord& r) {
    const pacer::AdaptivePolicy::Decision& d = p.last_transition();
    if (d.kind != last.kind || d.interval != last.interval) {
      out.transitions.push_back(d.kind);
      EXPECT_FALSE(d.reason.empty()) << to_string(d.kind);
      last = d;
    }
    out.cadences.push_back(p.cadence());
    out.intervals.push_back(p.interval());
    records.push_back(r);
  });
  out.run.records = std::move(records);
  return out;
}

/// `frames` renders of `a`, then from frame `at` on renders of `b`.
inline std::vector<pacer::Nanos> step_load(std::size_t frames, pacer::Nanos a, std::size_t at, pacer::Nanos b) {
  std::vector<pacer::Nanos> v(frames, a);
  for (std::size_t i = at; i < frames; ++i) v[i] = b;
  return v;
}

/// Animation error of frame i (docs/log-format.md, Metrics): how much more the world
/// advanced than the display did.
inline pacer::Nanos anim_error(const pacer::SimRun& r, std::size_t i) {
  return pacer::animation_error(r.records[i - 1], r.records[i]);
}

/// Mean display gap in ms over records [from, to): the gaps from record from - 1 to to - 1.
inline double mean_gap_ms(const pacer::SimRun& r, std::size_t from, std::size_t to) {
  return pacer::to_ms(*r.records[to - 1].display - *r.records[from - 1].display) / static_cast<double>(to - from);
}

/// p99 |animation error| of records [from, end).
inline pacer::Nanos p99_anim_error(const pacer::SimRun& r, std::size_t from) {
  std::vector<pacer::Nanos> e;
  for (std::size_t i = from; i < r.records.size(); ++i) e.push_back(std::chrono::abs(anim_error(r, i)));
  std::sort(e.begin(), e.end());
  return e[e.size() * 99 / 100];
}

/// Simulation time dropped over records [from, to) (to = 0: to the end).
inline pacer::Nanos dropped_in(const pacer::SimRun& r, std::size_t from = 0, std::size_t to = 0) {
  pacer::Nanos sum{0};
  for (std::size_t i = from; i < (to == 0 ? r.records.size() : to); ++i) sum += r.records[i].dropped;
  return sum;
}
