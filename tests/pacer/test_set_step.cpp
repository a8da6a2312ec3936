// Pacer::set_step: a new fixed step between frames, in place (a step or time-scale change in
// the engine's loop). For every policy, in virtual time: the exact account holds across the
// change, the updates after it are of the new step, and the pacer keeps its state (the
// interval, adaptive's vblank grid and display mode): nothing is dropped, no stall clamp or
// step cap, as a fresh pacer would log while it learns again.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "pacer/adaptive.hpp"
#include "pacer/display_spec.hpp"
#include "pacer/frame_driver.hpp"
#include "pacer/policies.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

constexpr Nanos kPeriod{16'666'667};

/// A FIFO-like virtual display at 60 Hz (a present is shown at the first vblank at or after
/// it, one frame per vblank), fixed render and update costs. Checks the account after every
/// update and wait.
class Host final : public FrameHost {
 public:
  Host(Pacer& pacer, Nanos render_cost, Nanos update_cost = 200_us)
      : pacer_{pacer}, render_cost_{render_cost}, update_cost_{update_cost} {}
  Nanos now() override { return now_; }
  bool acquire() override { return true; }
  void render(const FramePlan&) override { now_ += render_cost_; }
  PresentResult present(std::int64_t) override {
    Nanos shown = std::max(now_, last_shown_ + kPeriod);
    shown = (shown + kPeriod - Nanos{1}) / kPeriod * kPeriod;
    last_shown_ = shown;
    return {.display = shown, .replaced = std::nullopt};
  }
  void update(Nanos step) override {
    steps.push_back(step);
    simulated += step;
    now_ += update_cost_;
    check();
  }
  void wait_until(Nanos deadline) override {
    now_ = std::max(now_, deadline);
    check();
  }
  TimingSource timing_source() const override { return TimingSource::virtual_time; }

  void check() {
    const TimeAccount a = pacer_.account();
    if (a.simulated + a.pending + a.dropped != a.elapsed) ++violations;
    if (a.simulated != simulated) ++violations;
  }

  std::vector<Nanos> steps;
  Nanos simulated{0};
  int violations = 0;

 private:
  Pacer& pacer_;
  Nanos render_cost_, update_cost_;
  Nanos now_{3_ms};
  Nanos last_shown_{0};
};

PolicyConfig config(Nanos step) {
  PolicyConfig cfg;
  cfg.sim.step = step;
  fit_to_display(cfg, parse_display("fifo:60").value());
  return cfg;
}

struct Driven {
  std::vector<FrameRecord> records;
  std::vector<std::size_t> steps_at;  ///< host.steps.size() at each step change
};

/// Frames in `frames.size()` parts; before part i > 0 the step becomes steps[i].
Driven drive(Pacer& p, Host& host, const std::vector<int>& frames, const std::vector<Nanos>& steps) {
  Driven run;
  FrameDriver driver{host, [&](const FrameRecord& r) { run.records.push_back(r); }};
  driver.use(p);
  for (std::size_t part = 0; part < frames.size(); ++part) {
    if (part > 0) {
      const Nanos before = p.interval();
      EXPECT_TRUE(p.set_step(steps[part]));
      EXPECT_EQ(p.interval(), before) << "set_step leaves the interval alone";
      EXPECT_EQ(p.clock().step(), steps[part]);
      run.steps_at.push_back(host.steps.size());
    }
    for (int f = 0; f < frames[part]; ++f) {
      EXPECT_TRUE(driver.render_frame());
      driver.run_actions();
    }
  }
  driver.finish();
  return run;
}

bool has_target(std::string_view name) {
  return name == "adaptive" || name == "accumulator-capped" || name == "swappy" || name == "framepace";
}

class SetStepEveryPolicy : public ::testing::TestWithParam<std::string_view> {};

}  // namespace

TEST_P(SetStepEveryPolicy, AStepChangeKeepsTheAccountAndThePacing) {
  const std::string_view name = GetParam();
  auto p = make_pacer(name, config(5_ms));
  Host host{*p, 3_ms};
  // 5 ms, then 2.5 ms (a time scale of 2), then 10 ms (a time scale of 1/2 or a coarser step).
  const Driven run = drive(*p, host, {200, 200, 200}, {5_ms, 2'500_us, 10_ms});
  ASSERT_EQ(run.records.size(), 600u);
  EXPECT_EQ(host.violations, 0) << "simulated + pending + dropped == elapsed, simulated == the steps run";

  // The updates of each part are of its step (variable: the frame time, not a fixed step).
  if (name != "variable") {
    for (std::size_t i = 0; i < host.steps.size(); ++i) {
      const Nanos want = i < run.steps_at[0] ? 5_ms : i < run.steps_at[1] ? 2'500_us : 10_ms;
      ASSERT_EQ(host.steps[i], want) << "update " << i;
    }
  }
  const bool accumulator_like = name == "accumulator" || name == "accumulator-capped";
  Nanos dropped{0};
  for (const FrameRecord& r : run.records) {
    EXPECT_GE(r.alpha, 0.0) << r.frame;
    if (accumulator_like) {
      EXPECT_LT(r.alpha, 1.0) << r.frame;
    } else {
      EXPECT_LE(r.alpha, 1.0) << r.frame;
    }
    dropped += r.dropped;
    // After the start, steady costs: no debt dropped, no stall clamp, no step cap, at the
    // switches as elsewhere.
    if (r.frame >= 20) {
      EXPECT_EQ(r.dropped, Nanos::zero()) << r.frame;
      EXPECT_EQ(r.events & (event_stall_clamp | event_step_cap), 0u) << r.frame;
    }
    // The world shown never goes back.
    if (r.frame > 0) {
      EXPECT_GE(r.animation_time, run.records[static_cast<std::size_t>(r.frame - 1)].animation_time) << r.frame;
    }
  }
  EXPECT_EQ(dropped, p->clock().dropped());
  // A policy with a frame-rate target keeps its interval across the changes.
  if (has_target(name)) {
    for (const std::size_t at : {200u, 400u}) {
      for (std::size_t i = at; i < at + 30; ++i) EXPECT_EQ(run.records[i].interval, run.records[at - 1].interval) << i;
    }
  }
}

TEST_P(SetStepEveryPolicy, AStepChangeIsRefusedMidFrameAndOutOfRange) {
  auto p = make_pacer(GetParam(), config(5_ms));
  EXPECT_TRUE(p->set_step(4_ms)) << "before the first frame";
  p->begin_frame(0_ms);
  EXPECT_THROW(p->set_step(5_ms), std::logic_error) << "during the render";
  p->end_render(3_ms);
  EXPECT_THROW(p->set_step(5_ms), std::logic_error) << "before the frame's actions";
  Nanos now = 3_ms;
  for (Action a = p->next(now); a.kind != ActionKind::render; a = p->next(now)) {
    if (a.kind == ActionKind::update) {
      EXPECT_THROW(p->set_step(5_ms), std::logic_error) << "during an update";
      p->end_update(now += 100_us);
    } else {
      now = std::max(now, a.until);
    }
  }
  EXPECT_THROW(p->set_step(Nanos::zero()), std::invalid_argument);
  EXPECT_THROW(p->set_step(Nanos{-1}), std::invalid_argument);
  EXPECT_THROW(p->set_step(Nanos{3'600'000'000'001}), std::invalid_argument);
  EXPECT_EQ(p->clock().step(), 4_ms) << "a refused step changes nothing";
  EXPECT_TRUE(p->set_step(5_ms)) << "after next() answered render";
  p->finish(now);
  EXPECT_TRUE(p->set_step(6_ms)) << "after finish()";
}

INSTANTIATE_TEST_SUITE_P(Policies, SetStepEveryPolicy, ::testing::ValuesIn(policy_names().begin(), policy_names().end()),
                         [](const auto& param_info) {
                           std::string n{param_info.param};
                           for (char& c : n) c = c == '-' ? '_' : c;
                           return n;
                         });

TEST(AdaptiveSetStep, KeepsItsGridItsIntervalItsCadenceAndItsMode) {
  // A 20 ms render: adaptive paces slower than the refresh, locked to the display's grid. A
  // switch to 2.5 ms steps (twice the updates, each nearly free) keeps the whole state:
  // display mode, grid, cadence, interval; nothing dropped, no widen, no step cap.
  PolicyConfig cfg = config(5_ms);
  cfg.sim.max_steps_per_frame = 16;  // 2.5 ms steps over a frame of two periods
  AdaptivePolicy p{cfg.adaptive, cfg.sim};
  Host host{p, 20_ms, 10_us};
  std::vector<FrameRecord> records;
  FrameDriver driver{host, [&](const FrameRecord& r) { records.push_back(r); }};
  driver.use(p);
  for (int f = 0; f < 200; ++f) {
    ASSERT_TRUE(driver.render_frame());
    driver.run_actions();
  }
  ASSERT_TRUE(p.display_mode());
  const Nanos interval = p.interval();
  EXPECT_GT(interval, kPeriod + 1_ms) << "slower than the refresh";
  const Nanos period = p.grid().period();
  const auto cadence = p.cadence();
  ASSERT_TRUE(p.set_step(2'500_us));
  for (int f = 0; f < 200; ++f) {
    ASSERT_TRUE(driver.render_frame());
    driver.run_actions();
  }
  driver.finish();
  EXPECT_TRUE(p.display_mode());
  EXPECT_EQ(p.interval(), interval);
  EXPECT_EQ(p.cadence(), cadence);
  EXPECT_EQ(p.grid().period(), period);
  EXPECT_EQ(host.violations, 0);
  ASSERT_EQ(records.size(), 400u);
  for (std::size_t i = 200; i < records.size(); ++i) {
    EXPECT_EQ(records[i].dropped, Nanos::zero()) << i;
    EXPECT_EQ(records[i].events & (event_widen | event_stall_clamp | event_step_cap), 0u) << i;
  }
}
