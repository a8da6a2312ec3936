// Planned presents: the world is rendered for the planned display time and the present is
// held until it, so varying render costs do not reach the screen (immediate presentation).
#include <gtest/gtest.h>

#include <vector>

#include "pacer/adaptive.hpp"
#include "pacer/simulator.hpp"
#include "pacer/stats.hpp"
#include "configs.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

SimRun run_immediate(AdaptivePolicy& p, std::int64_t frames) {
  SimOptions opt;
  opt.display.mode = PresentMode::immediate;
  SimCosts costs{[](std::int64_t f) { return f % 3 == 0 ? 3_ms : (f % 3 == 1 ? 6_ms : 4_ms); },
                 [](std::int64_t, std::int64_t) { return 500_us; }};
  return simulate(p, costs, frames, opt);
}

AdaptiveConfig fixed_16(bool aware) {
  AdaptiveConfig cfg;
  cfg.initial_interval = 16_ms;
  cfg.shrink = false;
  cfg.display_aware = aware;
  cfg.catch_up = 0;  // the first frame's lag is dropped as debt, not caught up
  return cfg;
}

}  // namespace

TEST(PlannedPresent, PresentsAreHeldToTheirPlannedTimeAndShowIt) {
  AdaptivePolicy p{fixed_16(true), step_5()};
  const SimRun run = run_immediate(p, 100);
  // The first planned frame starts at its own display time (the display was unknown
  // before) and is shown one render late; the world keeps that lag (dropped as debt)
  // rather than jumping, so every later frame shows its display time less that lag.
  const Nanos lag = run.records[2].present - run.records[2].animation_time;
  EXPECT_EQ(lag, run.records[1].dropped);
  for (std::size_t i = 3; i < run.records.size(); ++i) {
    const FrameRecord& r = run.records[i];
    ASSERT_TRUE(r.display);
    EXPECT_EQ(*r.display, r.present);
    EXPECT_EQ(r.animation_time, r.present - lag) << i;  // rendered for the moment it is shown
    EXPECT_EQ(r.present - run.records[i - 1].present, 16_ms) << i;  // an even cadence
    EXPECT_LT(r.cpu_start, r.present - 6_ms) << "started a render estimate early";
  }
  const Summary s = summarize(run.records, {.warmup_frames = 3});
  EXPECT_EQ(s.anim_error_max_ms, 0.0);
}

TEST(PlannedPresent, TheSeedLoopShowsTheRenderCostAsAnimationError) {
  AdaptivePolicy p{fixed_16(false), step_5()};
  const SimRun run = run_immediate(p, 100);
  const Summary s = summarize(run.records, {.warmup_frames = 3});
  EXPECT_EQ(s.anim_error_max_ms, 3.0);  // render 3 ms after 6 ms: shown 3 ms early
}

TEST(PlannedPresent, PlansAreDeterministic) {
  AdaptivePolicy a{fixed_16(true), step_5()}, b{fixed_16(true), step_5()};
  const SimRun x = run_immediate(a, 200), y = run_immediate(b, 200);
  ASSERT_EQ(x.records.size(), y.records.size());
  for (std::size_t i = 0; i < x.records.size(); ++i) {
    EXPECT_EQ(x.records[i].present, y.records[i].present);
    EXPECT_EQ(x.records[i].animation_time, y.records[i].animation_time);
  }
}

TEST(PlannedPresent, AlphaStaysInRangeAndTimeIsConserved) {
  AdaptivePolicy p{fixed_16(true), step_5()};
  const SimRun run = run_immediate(p, 300);
  for (std::size_t i = 1; i < run.records.size(); ++i) {
    EXPECT_GT(run.records[i].alpha, 0.0) << i;
    EXPECT_LE(run.records[i].alpha, 1.0) << i;
  }
  const TimeAccount a = p.account();
  EXPECT_EQ(a.simulated + a.pending + a.dropped, a.elapsed);
  EXPECT_EQ(a.simulated, 5_ms * p.clock().steps());
}
