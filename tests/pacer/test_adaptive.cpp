// The adaptive interval: widening, shrinking, hitches, bounds, stalls, the step cap.
#include <gtest/gtest.h>

#include <vector>

#include "pacer/adaptive.hpp"
#include "pacer/simulator.hpp"
#include "configs.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

AdaptiveConfig interval_16(bool shrink = true) {
  AdaptiveConfig cfg;
  cfg.initial_interval = 16_ms;
  cfg.shrink = shrink;
  return cfg;
}

/// Runs `frames` frames with a render cost per frame; updates cost `update`.
SimRun run_with(AdaptivePolicy& p, std::vector<Nanos> render_costs, Nanos update = 1_ms) {
  const auto frames = static_cast<std::int64_t>(render_costs.size());
  SimCosts costs{[render_costs](std::int64_t f) { return render_costs[static_cast<std::size_t>(f)]; },
                 [update](std::int64_t, std::int64_t) { return update; }};
  return simulate(p, costs, frames);
}

int count_events(const SimRun& run, unsigned event) {
  int n = 0;
  for (const auto& r : run.records) n += (r.events & event) != 0 ? 1 : 0;
  return n;
}

}  // namespace

TEST(Adaptive, RenderOverrunWidensToFactorTimesFrameTime) {
  AdaptivePolicy p{interval_16(false), step_5()};
  p.begin_frame(0_ms);
  p.end_render(20_ms);  // the render alone took 20 ms > 16
  EXPECT_EQ(p.interval(), 24_ms);  // 1.2 x 20
  // The frame end moved to 24: updates (free here) run until the simulation passes it.
  const Nanos now = 20_ms;
  int updates = 0;
  for (Action a = p.next(now); a.kind == ActionKind::update; a = p.next(now)) {
    p.end_update(now);
    ++updates;
  }
  EXPECT_EQ(updates, 5);  // 0 -> 25 passes 24
  EXPECT_EQ(p.clock().current(), 25_ms);
  const Action a = p.next(now);
  ASSERT_EQ(a.kind, ActionKind::wait);
  EXPECT_EQ(a.until, 24_ms);
  p.next(24_ms);
  const FramePlan next = p.begin_frame(24_ms);
  EXPECT_DOUBLE_EQ(next.alpha, 0.8);  // (24 - 20) / 5
  const auto r = p.take_record();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->events, unsigned{event_widen});
  EXPECT_EQ(r->interval, 24_ms);
}

TEST(Adaptive, UpdateOverrunMidIntervalMovesTheFrameEnd) {
  AdaptivePolicy p{interval_16(false), step_5()};
  p.begin_frame(0_ms);
  p.end_render(3_ms);
  ASSERT_EQ(p.next(3_ms).kind, ActionKind::update);
  p.end_update(4_ms);
  ASSERT_EQ(p.next(4_ms).kind, ActionKind::update);
  p.end_update(18_ms);  // one slow update: the frame so far took 18 ms > 16
  EXPECT_EQ(p.interval(), scale(18_ms, 1.2));
  const Nanos frame_end = scale(18_ms, 1.2);  // 21.6 ms
  // Updates go on until the simulation passes the moved frame end (21.6 -> 25).
  Nanos now = 18_ms;
  Action a = p.next(now);
  while (a.kind == ActionKind::update) {
    now += 1_ms;
    p.end_update(now);
    a = p.next(now);
  }
  EXPECT_EQ(p.clock().current(), 25_ms);
  ASSERT_EQ(a.kind, ActionKind::wait);
  EXPECT_EQ(a.until, frame_end);
}

TEST(Adaptive, ShrinksAfterSustainedHeadroomAndNotBefore) {
  AdaptiveConfig cfg = interval_16();
  cfg.initial_interval = 40_ms;
  AdaptivePolicy p{cfg, step_5()};
  // Busy about 3 + 8 x 1 = 11 ms per 40 ms: plenty of headroom.
  const SimRun run = run_with(p, std::vector<Nanos>(200, 3_ms));
  // Nothing shrinks during the first shrink_window frames.
  for (int f = 0; f < cfg.shrink_window; ++f) EXPECT_EQ(run.records[static_cast<std::size_t>(f)].interval, 40_ms) << f;
  EXPECT_LT(p.interval(), 40_ms);
  // It converges on widen_factor x the busiest frame, never below it.
  EXPECT_GE(p.interval(), scale(4_ms, 1.2));
  // Slowly: each shrink is at least shrink_window frames after the last change.
  std::int64_t last = -1;
  for (const auto& r : run.records) {
    if ((r.events & event_shrink) == 0) continue;
    if (last >= 0) {
      EXPECT_GE(r.frame - last, cfg.shrink_window);
    }
    last = r.frame;
  }
  EXPECT_EQ(count_events(run, event_widen), 0);
}

TEST(Adaptive, NoFlappingWhenCostsHoverAtAThreshold) {
  AdaptivePolicy p{interval_16(), step_5()};
  // Render costs hover around the 16 ms interval: some frames just under it, some just over.
  std::vector<Nanos> costs;
  for (int i = 0; i < 2000; ++i) costs.push_back(i % 3 == 0 ? 15_ms : (i % 3 == 1 ? 16500_us : 15500_us));
  const SimRun run = run_with(p, costs, 100_us);
  const int changes = count_events(run, event_widen) + count_events(run, event_shrink);
  EXPECT_LE(changes, 4) << "the interval settles instead of flapping";
  // And it settles where every frame fits.
  int late = 0;
  for (std::size_t i = 1000; i < run.records.size(); ++i)
    late += run.records[i].cpu_start > run.records[i].planned_start ? 1 : 0;
  EXPECT_EQ(late, 0);
}

TEST(Adaptive, RecoversQuicklyAfterASingleHitch) {
  AdaptivePolicy p{interval_16(), step_5()};
  std::vector<Nanos> costs(100, 3_ms);
  costs[50] = 80_ms;  // one 80 ms hitch
  const SimRun run = run_with(p, costs);
  const FrameRecord& hitch = run.records[50];
  EXPECT_NE(hitch.events & event_widen, 0u);
  EXPECT_EQ(hitch.interval, 96_ms);
  // Back at the old interval within hitch_frames + 1 frames, not a shrink window later.
  const auto back = static_cast<std::size_t>(50 + p.config().hitch_frames + 1);
  EXPECT_EQ(run.records[back - 1].interval, 96_ms);
  EXPECT_EQ(run.records[back].interval, run.records[49].interval);
  EXPECT_NE(run.records[back].events & event_shrink, 0u);
}

TEST(Adaptive, ALastingChangeIsNotTakenForAHitch) {
  AdaptivePolicy p{interval_16(), step_5()};
  std::vector<Nanos> costs(100, 3_ms);
  for (std::size_t i = 50; i < costs.size(); ++i) costs[i] = 20_ms;  // the load steps up and stays
  const SimRun run = run_with(p, costs, 100_us);
  for (std::size_t i = 60; i < run.records.size(); ++i) {
    EXPECT_GT(run.records[i].interval, 20_ms) << i;
    EXPECT_EQ(run.records[i].cpu_start, run.records[i].planned_start) << "frames fit again: " << i;
  }
}

TEST(Adaptive, IntervalStaysWithinItsBounds) {
  AdaptiveConfig cfg = interval_16();
  cfg.min_interval = 10_ms;
  cfg.max_interval = 50_ms;
  AdaptivePolicy p{cfg, step_5()};
  std::vector<Nanos> costs(600, 1_ms);
  for (std::size_t i = 100; i < 110; ++i) costs[i] = 90_ms;  // would widen to 108 ms
  const SimRun run = run_with(p, costs, 10_us);
  for (const auto& r : run.records) {
    EXPECT_GE(r.interval, 10_ms);
    EXPECT_LE(r.interval, 50_ms);
  }
  EXPECT_EQ(run.records[105].interval, 50_ms);
  EXPECT_EQ(p.interval(), 10_ms);  // shrunk to the cap again, not below
}

TEST(Adaptive, StallLongerThanTheClampDropsTheExcess) {
  AdaptivePolicy p{interval_16(false), step_5()};
  p.begin_frame(0_ms);
  p.end_render(1_ms);
  Nanos now = 1_ms;
  for (Action a = p.next(now); a.kind != ActionKind::render; a = p.next(now)) {
    if (a.kind == ActionKind::update) {
      p.end_update(now);
    } else {
      now = a.until;
    }
  }
  // A debugger break: the next frame starts 2 s late and its render ends then.
  p.begin_frame(2000_ms);
  p.end_render(2000_ms);
  Action a = p.next(2000_ms);
  ASSERT_EQ(a.kind, ActionKind::update);
  const FixedStepConfig sim = step_5();
  // The simulation had to cover 2000 + 16 - 20 ms; all beyond the 250 ms clamp was dropped.
  EXPECT_EQ(p.clock().dropped(), 2016_ms - 20_ms - sim.stall_clamp);
  p.end_update(2000_ms);
  p.finish(2000_ms);
  const auto r = p.take_record();
  ASSERT_TRUE(r);
  EXPECT_NE(r->events & event_stall_clamp, 0u);
  EXPECT_EQ(r->dropped, p.clock().dropped());
}

TEST(Adaptive, StepCapDiscardsDebtByDefault) {
  FixedStepConfig sim = step_5();
  sim.max_steps_per_frame = 2;
  AdaptivePolicy p{interval_16(false), sim};
  const SimRun run = simulate(p, SimCosts::fixed(3_ms, 1_ms), 20);
  for (const auto& r : run.records) EXPECT_LE(r.sim_steps, 2);
  // 16 ms per frame but only 10 ms simulated: 6 ms dropped per frame, alpha 1.
  const FrameRecord& r = run.records[5];
  EXPECT_NE(r.events & event_step_cap, 0u);
  EXPECT_EQ(r.dropped, 6_ms);
  EXPECT_EQ(run.records[6].alpha, 1.0);
  EXPECT_EQ(run.records[6].animation_time, run.records[6].sim_current);
}

TEST(Adaptive, StepCapKeepsDebtInKeepModeAndCatchesUpLater) {
  FixedStepConfig sim = step_5();
  sim.max_steps_per_frame = 4;
  sim.debt = DebtPolicy::keep;
  AdaptivePolicy p{interval_16(), sim};
  // One 100 ms frame leaves far more simulation to do than 4 steps can cover.
  std::vector<Nanos> costs(80, 1_ms);
  costs[5] = 100_ms;
  const SimRun run = run_with(p, costs, 100_us);
  Nanos dropped{0};
  bool capped = false;
  for (const auto& r : run.records) {
    EXPECT_LE(r.sim_steps, 4);
    dropped += r.dropped;
    capped = capped || (r.events & event_step_cap) != 0;
  }
  EXPECT_TRUE(capped);
  EXPECT_EQ(dropped, 0_ms) << "keep mode never discards";
  // While in debt the newest state is shown (alpha 1, behind the frame time)...
  EXPECT_EQ(run.records[7].alpha, 1.0);
  EXPECT_LT(run.records[7].animation_time, run.records[7].planned_start);
  // ...and later frames run the full cap until the world is on time again.
  const FrameRecord& last = run.records.back();
  EXPECT_EQ(last.animation_time, last.planned_start);
}

TEST(Adaptive, WidenFactorIsConfigurable) {
  AdaptiveConfig cfg = interval_16(false);
  cfg.widen_factor = 1.5;
  AdaptivePolicy p{cfg, step_5()};
  p.begin_frame(0_ms);
  p.end_render(20_ms);
  EXPECT_EQ(p.interval(), 30_ms);
}

TEST(Adaptive, AHitchWithAStragglerIsStillForgiven) {
  AdaptivePolicy p{interval_16(), step_5()};
  std::vector<Nanos> costs(100, 3_ms);
  costs[50] = 80_ms;  // the hitch
  costs[51] = 30_ms;  // and a smaller overrun right behind it (Cyberpunk's trace has 113 then 22.7 ms)
  const SimRun run = run_with(p, costs);
  const Nanos before = run.records[49].interval;
  // Back at the old interval within a few frames, not a shrink window (30 frames) later.
  bool restored = false;
  for (std::size_t i = 52; i <= 58; ++i) restored = restored || run.records[i].interval == before;
  EXPECT_TRUE(restored);
  EXPECT_LE(run.records.back().interval, before) << "and the ordinary shrinking goes on from there";
}
