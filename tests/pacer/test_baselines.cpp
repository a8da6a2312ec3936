// Each baseline on a small worked case of its published loop (docs/background.md, sections 2-3).
#include <gtest/gtest.h>

#include "pacer/baselines.hpp"
#include "pacer/simulator.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {
FixedStepConfig step_10(int cap = 8) {
  FixedStepConfig sim;
  sim.step = 10_ms;
  sim.max_steps_per_frame = cap;
  return sim;
}
}  // namespace

TEST(Accumulator, RendersTheBlendOfTheAccumulatorOneStepBehind) {
  AccumulatorPolicy p{{}, step_10()};
  const SimRun run = simulate(p, SimCosts::fixed(4_ms, 1_ms), 5);
  // Time accumulates 4 ms a frame; an update consumes 10 ms; no waiting (uncapped).
  EXPECT_EQ(format_timeline(run.timeline), "R0 R4 R8 U10 R13 R17");
  ASSERT_EQ(run.records.size(), 5u);
  EXPECT_DOUBLE_EQ(run.records[1].alpha, 0.4);
  EXPECT_DOUBLE_EQ(run.records[2].alpha, 0.8);
  // Frame 3 was read at t=12: accumulator 2 ms, alpha 0.2 between states 0 and 10,
  // showing world time 2: one step behind the read.
  EXPECT_DOUBLE_EQ(run.records[3].alpha, 0.2);
  EXPECT_EQ(run.records[3].sim_previous, 0_ms);
  EXPECT_EQ(run.records[3].sim_current, 10_ms);
  EXPECT_EQ(run.records[3].animation_time, 2_ms);
  EXPECT_EQ(p.accumulator(), 7_ms);  // the read at 17 added the 5 ms since the read at 12
}

TEST(Accumulator, ClampsAFrameTimeOverAQuarterSecond) {
  AccumulatorPolicy p{{}, step_10()};
  p.begin_frame(0_ms);
  p.end_render(0_ms);
  int updates = 0;
  Nanos now = 300_ms;
  while (p.next(now).kind == ActionKind::update) {
    p.end_update(now);
    ++updates;
  }
  EXPECT_EQ(updates, 25);  // 250 ms of the 300 ms frame
  EXPECT_EQ(p.clock().dropped(), 50_ms);
  EXPECT_EQ(p.accumulator(), 0_ms);
}

TEST(AccumulatorCapped, LimiterWaitsForTheTargetSlotThenReadsTheClock) {
  AccumulatorPolicy p{{16_ms}, step_10()};
  EXPECT_EQ(p.name(), "accumulator-capped");
  const SimRun run = simulate(p, SimCosts::fixed(2_ms, 1_ms), 3);
  // Godot's limiter: sleep to the slot, then the frame reads the time and steps.
  EXPECT_EQ(format_timeline(run.timeline), "R0 W16 U10 R17 W32 U20 U30 R34");
  EXPECT_DOUBLE_EQ(run.records[1].alpha, 0.6);
  EXPECT_EQ(run.records[1].interval, 16_ms);
}

TEST(Flipcode, TicksWhileTheGameTimeTrailsByMoreThanATick) {
  FlipcodePolicy p{{}, step_10()};
  const SimRun run = simulate(p, SimCosts::fixed(4_ms, 1_ms), 6);
  // (time1 - time0) > TICK_TIME, strictly: at t=12 one tick runs (12 - 0 > 10).
  EXPECT_EQ(format_timeline(run.timeline), "R0 R4 R8 U10 R13 R17 U20 R22");
  // Drawn with min(1, (time1 - time0) / TICK_TIME): read at 12, time0 = 10 -> 0.2.
  EXPECT_DOUBLE_EQ(run.records[3].alpha, 0.2);
  EXPECT_EQ(run.records[3].animation_time, 2_ms);
}

TEST(Flipcode, SoloDiscardsTheDebtAfterMaxLoops) {
  FlipcodePolicy p{{false}, step_10(2)};
  p.begin_frame(0_ms);
  p.end_render(4_ms);
  int ticks = 0;
  while (p.next(50_ms).kind == ActionKind::update) {
    p.end_update(50_ms);
    ++ticks;
  }
  EXPECT_EQ(ticks, 2);  // MAX_LOOPS
  // time0 = 20 after two ticks; solo play sets time0 = time1 - TICK_TIME = 40.
  EXPECT_EQ(p.clock().dropped(), 20_ms);
  const FramePlan plan = p.begin_frame(50_ms);
  EXPECT_DOUBLE_EQ(plan.alpha, 1.0);
  const auto r = p.take_record();
  ASSERT_TRUE(r);
  EXPECT_NE(r->events & event_step_cap, 0u);
  EXPECT_EQ(r->dropped, 20_ms);
}

TEST(Flipcode, NetworkedKeepsTheDebtAndCatchesUpOverLaterFrames) {
  FlipcodePolicy p{{true}, step_10(2)};
  p.begin_frame(0_ms);
  p.end_render(4_ms);
  while (p.next(50_ms).kind == ActionKind::update) p.end_update(50_ms);
  EXPECT_EQ(p.clock().dropped(), 0_ms);
  EXPECT_EQ(p.clock().current(), 20_ms);
  // Next frame, read at 51: still capped at 2 ticks, game time 40, then 1 tick at 52.
  p.begin_frame(50_ms);
  p.end_render(51_ms);
  int ticks = 0;
  while (p.next(51_ms).kind == ActionKind::update) {
    p.end_update(51_ms);
    ++ticks;
  }
  EXPECT_EQ(ticks, 2);
  p.begin_frame(51_ms);
  p.end_render(52_ms);
  ticks = 0;
  while (p.next(52_ms).kind == ActionKind::update) {
    p.end_update(52_ms);
    ++ticks;
  }
  EXPECT_EQ(ticks, 1);  // 52 - 40 > 10 once: the debt is caught up
  EXPECT_EQ(p.clock().current(), 50_ms);
  EXPECT_EQ(p.clock().dropped(), 0_ms);
}

TEST(Variable, OneUpdateOfTheMeasuredFrameTimeNoInterpolation) {
  VariablePolicy p{step_10()};
  const SimRun run = simulate(p, SimCosts::fixed(4_ms, 1_ms), 4);
  EXPECT_EQ(format_timeline(run.timeline), "R0 U4 R5 U9 R10 U14 R15");
  for (const auto& r : run.records) {
    EXPECT_EQ(r.alpha, 1.0);
    EXPECT_EQ(r.animation_time, r.sim_current);
  }
}
