// The spiral of death: updates that cost more than the time they simulate. The seed's
// loop widens until the frame-rate floor; the display-aware adaptive keeps its cadence,
// gives the updates the time left before the next frame and drops the rest (slow motion).
#include <gtest/gtest.h>

#include "pacer/adaptive.hpp"
#include "pacer/simulator.hpp"
#include "configs.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

SimRun run_spiral(AdaptivePolicy& p) {
  SimOptions opt;
  opt.display.mode = PresentMode::fifo;
  opt.display.period = 10_ms;
  return simulate(p, SimCosts::fixed(2_ms, 6_ms), 400, opt);  // an update of 5 ms costs 6 ms
}

AdaptiveConfig cfg(bool aware) {
  AdaptiveConfig c;
  c.initial_interval = 20_ms;
  c.refresh_period = 10_ms;
  c.display_aware = aware;
  return c;
}

}  // namespace

TEST(Spiral, TheSeedLoopWidensToTheStepCap) {
  AdaptivePolicy p{cfg(false), step_5()};
  run_spiral(p);
  EXPECT_GE(p.interval(), 50_ms);  // 8 capped updates x 6 ms + render, x 1.2
}

TEST(Spiral, TheGuardKeepsTheCadenceAndDropsTheDebt) {
  AdaptivePolicy p{cfg(true), step_5()};
  const SimRun run = run_spiral(p);
  EXPECT_LE(p.interval(), 30_ms);
  Nanos dropped{0};
  for (std::size_t i = 200; i < run.records.size(); ++i) {
    dropped += run.records[i].dropped;
    EXPECT_EQ(*run.records[i].display - *run.records[i - 1].display, p.interval()) << i;
  }
  EXPECT_GT(dropped, 0_ms);
  const TimeAccount a = p.account();
  EXPECT_EQ(a.simulated + a.pending + a.dropped, a.elapsed);
}
