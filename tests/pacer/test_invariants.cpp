// Rules every policy keeps (docs/pacing.md, Invariants), checked on a noisy workload
// with a stall: alpha range, exact conservation of time, determinism, the step
// cap, and rendering never changing world state.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "pacer/log_writer.hpp"
#include "pacer/policies.hpp"
#include "pacer/simulator.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

/// Deterministic, irregular costs: 2-9 ms renders, 0.2-1.1 ms updates, a 400 ms
/// stall at frame 150 and a run of heavy frames from 200 to 230.
Nanos render_cost(std::int64_t f) {
  if (f == 150) return 400_ms;
  if (f >= 200 && f < 230) return 30_ms;
  return Nanos{2'000'000 + (f * 7'919 % 13) * 541'000};
}
Nanos update_cost(std::int64_t, std::int64_t u) { return Nanos{200'000 + (u * 104'729 % 10) * 90'000}; }

PolicyConfig config() {
  PolicyConfig cfg;
  cfg.sim.step = 10_ms;
  cfg.sim.max_steps_per_frame = 6;
  return cfg;
}

class EveryPolicy : public ::testing::TestWithParam<std::string_view> {};

/// Drives the protocol by hand so the rules can be checked between the calls.
struct Checked {
  std::vector<FrameRecord> records;
  std::vector<Nanos> plan_intervals;   ///< FramePlan::interval, by frame
  std::vector<Nanos> start_intervals;  ///< Pacer::planned_interval() right after begin_frame, by frame
  std::vector<Nanos> end_intervals;    ///< Pacer::planned_interval() once next() said render, by frame
  bool world_changed_by_render = false;
  bool conservation_held = true;
  std::string first_violation;
};

Checked drive(Pacer& p, std::int64_t frames) {
  Checked out;
  Nanos now = 5_ms;  // the run does not start at zero
  std::int64_t updates = 0;
  for (std::int64_t f = 0; f < frames; ++f) {
    out.plan_intervals.push_back(p.begin_frame(now).interval);
    out.start_intervals.push_back(p.planned_interval());
    if (auto r = p.take_record()) out.records.push_back(*r);
    const Nanos before_prev = p.clock().previous(), before_curr = p.clock().current();
    const std::int64_t before_steps = p.clock().steps();
    now += render_cost(f);
    p.end_render(now);
    if (p.clock().previous() != before_prev || p.clock().current() != before_curr || p.clock().steps() != before_steps)
      out.world_changed_by_render = true;
    for (Action a = p.next(now); a.kind != ActionKind::render; a = p.next(now)) {
      if (a.kind == ActionKind::update) {
        now += update_cost(f, updates++);
        p.end_update(now);
      } else {
        now = std::max(now, a.until);
      }
      const TimeAccount t = p.account();
      if (t.simulated + t.pending + t.dropped != t.elapsed && out.conservation_held) {
        out.conservation_held = false;
        out.first_violation = "frame " + std::to_string(f);
      }
      // Fixed-step policies: simulated time is exactly steps x step (variable dt has no fixed step).
      if (p.name() != "variable" && t.simulated != p.clock().steps() * p.clock().step() && out.conservation_held) {
        out.conservation_held = false;
        out.first_violation = "steps x step != simulated at frame " + std::to_string(f);
      }
    }
    out.end_intervals.push_back(p.planned_interval());
  }
  p.finish(now);
  if (auto r = p.take_record()) out.records.push_back(*r);
  return out;
}

std::string log_of(std::string_view name) {
  auto p = make_pacer(name, config());
  std::ostringstream text;
  NativeLogWriter w{text};
  for (const auto& r : drive(*p, 400).records) w.write(r);
  return text.str();
}

}  // namespace

TEST_P(EveryPolicy, AlphaStaysInItsRange) {
  auto p = make_pacer(GetParam(), config());
  ASSERT_TRUE(p);
  const Checked run = drive(*p, 400);
  ASSERT_EQ(run.records.size(), 400u);
  const bool accumulator_like = GetParam() == "accumulator" || GetParam() == "accumulator-capped";
  for (const auto& r : run.records) {
    if (accumulator_like) {
      EXPECT_GE(r.alpha, 0.0) << r.frame;
      EXPECT_LT(r.alpha, 1.0) << r.frame;
    } else {
      EXPECT_GE(r.alpha, 0.0) << r.frame;
      EXPECT_LE(r.alpha, 1.0) << r.frame;
      if (GetParam() == "adaptive" && r.frame > 0) {
        EXPECT_GT(r.alpha, 0.0) << r.frame;
      }
    }
  }
}

TEST_P(EveryPolicy, NoTimeIsLost) {
  auto p = make_pacer(GetParam(), config());
  const Checked run = drive(*p, 400);
  EXPECT_TRUE(run.conservation_held) << run.first_violation;
  // Dropped debt in the records adds up to the clock's.
  Nanos dropped{0};
  for (const auto& r : run.records) dropped += r.dropped;
  EXPECT_EQ(dropped, p->clock().dropped());
  if (GetParam() != "accumulator" && GetParam() != "accumulator-capped" && GetParam() != "variable") {
    EXPECT_GT(dropped, 0_ms) << "the 400 ms stall must drop time";
  }
}

TEST_P(EveryPolicy, ThePlanCarriesTheIntervalInForceAtTheFramesStart) {
  // FramePlan::interval (engine::FrameInfo::interval) is the interval the frame starts planned
  // with, Pacer::planned_interval() then (the record's interval_ms is the one after the
  // frame's decisions): it was never set (always 0).
  auto p = make_pacer(GetParam(), config());
  const Checked run = drive(*p, 400);
  ASSERT_EQ(run.plan_intervals.size(), 400u);
  for (std::size_t f = 0; f < run.plan_intervals.size(); ++f) EXPECT_EQ(run.plan_intervals[f], run.start_intervals[f]) << f;
  if (GetParam() == "adaptive" || GetParam() == "accumulator-capped") {
    EXPECT_GT(run.plan_intervals.back(), 0_ms);
  }
  // planned_interval() (what the overlay and the status lines show) is the record's interval_ms.
  ASSERT_EQ(run.records.size(), run.end_intervals.size());
  for (std::size_t f = 0; f < run.records.size(); ++f) EXPECT_EQ(run.end_intervals[f], run.records[f].interval) << f;
}

TEST_P(EveryPolicy, SameTimesGiveTheSameLog) { EXPECT_EQ(log_of(GetParam()), log_of(GetParam())); }

TEST_P(EveryPolicy, RenderingNeverChangesWorldState) {
  auto p = make_pacer(GetParam(), config());
  EXPECT_FALSE(drive(*p, 400).world_changed_by_render);
}

TEST_P(EveryPolicy, StepsPerFrameNeverExceedTheCap) {
  if (GetParam() == "accumulator" || GetParam() == "accumulator-capped")
    GTEST_SKIP() << "the published accumulator loop has no step cap; its clamp bounds a frame to 0.25 s";
  auto p = make_pacer(GetParam(), config());
  for (const auto& r : drive(*p, 400).records) EXPECT_LE(r.sim_steps, config().sim.max_steps_per_frame) << r.frame;
}

TEST(AdaptiveInvariant, TheWorldShownIsTheFrameStartLessDroppedDebt) {
  auto p = make_pacer("adaptive", config());
  const Checked run = drive(*p, 400);
  Nanos dropped{0};
  for (const auto& r : run.records) {
    // Debt dropped during frame i-1 is already out of the world frame i shows.
    EXPECT_EQ(r.animation_time, r.planned_start - dropped) << r.frame;
    dropped += r.dropped;
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, EveryPolicy, ::testing::ValuesIn(policy_names().begin(), policy_names().end()),
                         [](const auto& param_info) {
                           std::string n{param_info.param};
                           for (char& c : n) c = c == '-' ? '_' : c;
                           return n;
                         });

TEST_P(EveryPolicy, AClockSteppingBackwardsGivesNoNegativeDurations) {
  // The protocol driven by hand with times that step back 2 s at frame 50 (no loop guard):
  // the pacer takes the earlier times as its latest, so durations stay >= 0, alpha stays in
  // range and the run goes on.
  auto p = make_pacer(GetParam(), config());
  Nanos now = 5_ms;
  std::vector<FrameRecord> records;
  for (std::int64_t f = 0; f < 120; ++f) {
    p->begin_frame(now);
    if (auto r = p->take_record()) records.push_back(*r);
    now += 3_ms;
    if (f == 50) now -= 2'000_ms;
    p->end_render(now);
    for (Action a = p->next(now); a.kind != ActionKind::render; a = p->next(now)) {
      if (a.kind == ActionKind::update) p->end_update(now += 1_ms);
      if (a.kind == ActionKind::wait) now = std::max(now, a.until);
    }
  }
  ASSERT_EQ(records.size(), 119u);
  for (const auto& r : records) {
    EXPECT_GE(r.render, Nanos::zero()) << r.frame;
    EXPECT_GE(r.update, Nanos::zero()) << r.frame;
    EXPECT_GE(r.pacer_wait, Nanos::zero()) << r.frame;
    EXPECT_GE(r.alpha, 0.0) << r.frame;
    EXPECT_LE(r.alpha, 1.0) << r.frame;
    EXPECT_LE(r.sim_steps, GetParam().starts_with("accumulator") ? 26 : 6) << r.frame;
  }
}
