// Replaying a run from its own records (pacer::replay_costs, `pacer-sim --replay`): the
// present call's cost after the hold, a display the loop does not hear, and the replay of
// a run being that run again.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "pacer/load_profile.hpp"
#include "pacer/policies.hpp"
#include "pacer/simulator.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

/// Costs that differ frame to frame: renders of 3-7 ms, present calls of 0-1.2 ms, updates
/// of 0.5 ms (the same for every update: a replay recovers each frame's mean update), and
/// 0-0.3 ms of the loop's own time after each present.
SimCosts varied_costs() {
  SimCosts costs{[](std::int64_t f) { return 3_ms + Nanos{(f * 7 % 5) * 1'000'000 + f % 3 * 1'234}; },
                 [](std::int64_t, std::int64_t) { return 500_us; }};
  costs.present = [](std::int64_t f) { return Nanos{(f % 4) * 400'000}; };
  costs.between = [](std::int64_t f) { return Nanos{(f % 3) * 150'000}; };
  return costs;
}

SimRun run_sim(const std::string& policy, const std::string& display, const SimCosts& costs, std::int64_t frames,
               bool display_times = true) {
  PolicyConfig cfg;
  cfg.sim.step = 5_ms;
  SimOptions opt;
  opt.display = parse_display(display).value();
  opt.waiter = WaiterKind::precise;
  opt.seed = 7;
  opt.display_times = display_times;
  fit_to_display(cfg, opt.display);
  auto pacer = make_pacer(policy, cfg);
  return simulate(*pacer, costs, frames, opt);
}

std::vector<FrameRecord> run(const std::string& policy, const std::string& display, const SimCosts& costs,
                             std::int64_t frames, bool display_times = true) {
  return run_sim(policy, display, costs, frames, display_times).records;
}

}  // namespace

TEST(Replay, APresentCallRunsAfterTheHoldAndCountsAsRenderWork) {
  SimCosts costs = SimCosts::fixed(4_ms, 500_us);
  costs.present = [](std::int64_t) { return 1_ms; };
  const auto records = run("adaptive", "immediate:60", costs, 120);
  int held = 0;
  for (const FrameRecord& r : records) {
    EXPECT_EQ(r.render, 5_ms) << "frame " << r.frame;                 // the render and its present call
    EXPECT_EQ(r.present - r.present_issued, 1_ms) << "frame " << r.frame;  // the call, after any hold
    ASSERT_TRUE(r.display.has_value());
    EXPECT_EQ(*r.display, r.present) << "frame " << r.frame;  // immediate: queued when the call returns
    if (r.present_planned && *r.present_planned > r.cpu_start + 4_ms) {
      ++held;
      EXPECT_GE(r.present_issued, *r.present_planned) << "frame " << r.frame;  // the hold came first
    }
  }
  EXPECT_GT(held, 100);
}

TEST(Replay, OffscreenAFrameIsDoneWhenItsPresentIsIssued) {
  SimCosts costs = SimCosts::fixed(4_ms, 500_us);
  costs.present = [](std::int64_t) { return 1_ms; };
  for (const FrameRecord& r : run("adaptive", "offscreen", costs, 60)) {
    ASSERT_TRUE(r.display.has_value());
    EXPECT_EQ(*r.display, r.present_issued) << "frame " << r.frame;
  }
}

TEST(Replay, ADisplayTheLoopDoesNotHearStillPacesButReportsNothing) {
  const auto heard = run("adaptive", "immediate:60", varied_costs(), 300);
  const auto unheard = run("adaptive", "immediate:60", varied_costs(), 300, false);
  ASSERT_EQ(unheard.size(), heard.size());
  int planned = 0;
  for (const FrameRecord& r : unheard) {
    EXPECT_FALSE(r.display.has_value()) << "frame " << r.frame;
    if (r.present_planned) ++planned;
  }
  EXPECT_GT(planned, 250);  // presents are still planned and held
}

TEST(Replay, CostsComeFromTheRecords) {
  std::vector<FrameRecord> records(3);
  records[0].render = 6_ms;  // 1 ms of it the present call
  records[0].present_issued = 10_ms;
  records[0].present = 11_ms;
  records[0].sim_steps = 2;
  records[0].update = 3_ms;
  records[1].render = 4_ms;  // no call time, no update
  records[1].present_issued = records[1].present = 20_ms;
  records[2].render = 2_ms;
  records[2].present_issued = 30_ms;
  records[2].present = 30_ms + 500_us;
  records[2].sim_steps = 1;
  records[2].update = 2_ms;
  const SimCosts costs = replay_costs(records, 9_ms);
  EXPECT_EQ(costs.render(0), 5_ms);
  EXPECT_EQ(costs.present(0), 1_ms);
  EXPECT_EQ(costs.update(0, 0), 1500_us);
  EXPECT_EQ(costs.render(1), 4_ms);
  EXPECT_EQ(costs.present(1), Nanos::zero());
  EXPECT_EQ(costs.update(1, 5), Nanos{5'000'000 / 3});  // the run's mean per update
  EXPECT_EQ(costs.render(2), 1500_us);
  EXPECT_EQ(costs.render(3), 5_ms);  // past the end: the records repeat
  // The loop's own time before a frame: its start beyond the frame before's columns.
  records[0].cpu_start = 1_ms;
  records[0].pacer_wait = 2_ms;  // frame 0's columns end at 1 + 3 + 6 + 2 = 12 ms
  records[1].cpu_start = 12_ms + 250_us;
  records[2].cpu_start = records[1].cpu_start + 4_ms + 100_us;  // frame 1's end 4 ms after its start
  const SimCosts gaps = replay_costs(records, 9_ms);
  EXPECT_EQ(gaps.between(1), 250_us);
  EXPECT_EQ(gaps.between(2), 100_us);
  EXPECT_EQ(gaps.between(3), 175_us);  // frame 0 has none before it: the run's mean, for a longer replay
  records[2].cpu_start = records[1].cpu_start;  // a start before the frame before's columns end: none
  EXPECT_EQ(replay_costs(records, 9_ms).between(2), Nanos::zero());
  EXPECT_EQ(replay_costs(std::vector<FrameRecord>(1), 9_ms).update(0, 0), 9_ms);  // no update at all
  EXPECT_THROW((void)replay_costs(std::vector<FrameRecord>{}, 9_ms), std::invalid_argument);
}

// The replay of a run from its records is that run again, frame for frame, wherever the
// display never blocks an acquire (a blocked acquire is in the record's render time, and the
// replayed display would add its own): what makes `pacer-sim --replay` of a real run's log a
// check that the real loop did what the simulator does.
TEST(Replay, ARunReplayedFromItsRecordsIsTheSameRun) {
  int compared = 0;
  // "fifo": a FIFO of unknown rate, as the engine's under Xvfb: no grid, so no acquire waits.
  for (const std::string display : {"immediate:60", "immediate", "offscreen", "vrr:48-144", "fifo"}) {
    for (const std::string policy : {"adaptive", "accumulator-capped", "flipcode", "swappy"}) {
      for (const bool heard : {true, false}) {
        SCOPED_TRACE(policy + " on " + display + (heard ? "" : ", display times not heard"));
        const SimRun first = run_sim(policy, display, varied_costs(), 400, heard);
        if (first.acquire_blocked > Nanos::zero()) continue;  // flipcode on VRR: its queue fills
        ++compared;
        const auto& original = first.records;
        const auto replayed = run(policy, display, replay_costs(original, 1_ms), 400, heard);
        ASSERT_EQ(replayed.size(), original.size());
        for (std::size_t i = 0; i < original.size(); ++i) {
          const FrameRecord& a = original[i];
          const FrameRecord& b = replayed[i];
          ASSERT_EQ(b.cpu_start, a.cpu_start) << "frame " << i;
          ASSERT_EQ(b.render, a.render) << "frame " << i;
          ASSERT_EQ(b.sim_steps, a.sim_steps) << "frame " << i;
          ASSERT_EQ(b.update, a.update) << "frame " << i;
          ASSERT_EQ(b.pacer_wait, a.pacer_wait) << "frame " << i;
          ASSERT_EQ(b.present_issued, a.present_issued) << "frame " << i;
          ASSERT_EQ(b.present, a.present) << "frame " << i;
          ASSERT_EQ(b.display, a.display) << "frame " << i;
          ASSERT_EQ(b.animation_time, a.animation_time) << "frame " << i;
          ASSERT_EQ(b.interval, a.interval) << "frame " << i;
        }
      }
    }
  }
  EXPECT_EQ(compared, 38);  // all 40 runs but flipcode's two on VRR
}
