// The worked timeline of docs/background.md, section 1, to the letter: render 3 ms,
// update 1 ms, fixed step 5 ms, interval 16 ms staying there.
#include <gtest/gtest.h>

#include "pacer/adaptive.hpp"
#include "pacer/simulator.hpp"
#include "configs.hpp"

using namespace pacer;
using namespace pacer::literals;

TEST(WorkedTimeline, MatchesTheSeedToTheLetter) {
  AdaptivePolicy p = seed_pacer();
  const SimRun run = simulate(p, SimCosts::fixed(3_ms, 1_ms), 3);
  EXPECT_EQ(format_timeline(run.timeline), "R0 U5 U10 U15 U20 W16 R16 U25 U30 U35 W32 R32");
}

TEST(WorkedTimeline, StepByStepProtocol) {
  AdaptivePolicy p = seed_pacer();
  // t=0: render with proportion 1.0, the world at time 0.
  FramePlan plan = p.begin_frame(0_ms);
  EXPECT_EQ(plan.alpha, 1.0);
  EXPECT_EQ(plan.animation_time, 0_ms);
  p.end_render(3_ms);
  // t=3,4,5,6: update 0->5, 5->10, 10->15, 15->20.
  Nanos now = 3_ms;
  for (Nanos expect : {5_ms, 10_ms, 15_ms, 20_ms}) {
    const Action a = p.next(now);
    ASSERT_EQ(a.kind, ActionKind::update);
    EXPECT_EQ(a.step, 5_ms);
    now += 1_ms;
    p.end_update(now);
    EXPECT_EQ(p.clock().current(), expect);
  }
  // t=7: simulation (20) is past the frame end (16): wait until 16.
  Action a = p.next(7_ms);
  ASSERT_EQ(a.kind, ActionKind::wait);
  EXPECT_EQ(a.until, 16_ms);
  a = p.next(16_ms);
  ASSERT_EQ(a.kind, ActionKind::render);
  // t=16: previous 15, current 20; 16 is 1 ms into the 5 ms step: proportion 0.2.
  plan = p.begin_frame(16_ms);
  EXPECT_EQ(plan.sim_previous, 15_ms);
  EXPECT_EQ(plan.sim_current, 20_ms);
  EXPECT_DOUBLE_EQ(plan.alpha, 0.2);
  EXPECT_EQ(plan.animation_time, 16_ms);
  EXPECT_EQ(plan.planned_start, 16_ms);
  // The record of frame 0 is complete: 4 updates taking 4 ms, 9 ms of waiting.
  const auto r = p.take_record();
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->frame, 0);
  EXPECT_EQ(r->render, 3_ms);
  EXPECT_EQ(r->sim_steps, 4);
  EXPECT_EQ(r->update, 4_ms);
  EXPECT_EQ(r->pacer_wait, 9_ms);
  EXPECT_EQ(r->interval, 16_ms);
  EXPECT_EQ(r->events, event_none);
  EXPECT_FALSE(p.take_record().has_value()) << "a record is handed out once";
}

TEST(WorkedTimeline, AfterTheUpdateLoopTheFrameEndLiesInTheLastStep) {
  AdaptivePolicy p = seed_pacer();
  const SimRun run = simulate(p, SimCosts::fixed(3_ms, 1_ms), 50);
  for (std::size_t i = 1; i < run.records.size(); ++i) {
    const FrameRecord& r = run.records[i];
    // sim_prev < frame_end <= sim_curr, and alpha in (0, 1].
    EXPECT_LT(r.sim_previous, r.planned_start) << "frame " << i;
    EXPECT_LE(r.planned_start, r.sim_current) << "frame " << i;
    EXPECT_GT(r.alpha, 0.0);
    EXPECT_LE(r.alpha, 1.0);
    EXPECT_EQ(r.animation_time, r.planned_start) << "the world shown is the world at the frame start";
  }
}
