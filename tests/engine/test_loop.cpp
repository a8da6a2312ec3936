// The real loop with a manual clock and a null target: it must drive a policy
// exactly as the virtual-time simulator does, and keep its promises (policy
// switches, interpolation toggle, minimized windows, quitting).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "engine/loop.hpp"
#include "pacer/adaptive.hpp"
#include "pacer/policies.hpp"
#include "pacer/simulator.hpp"

using namespace engine;
using namespace pacer::literals;
using pacer::Nanos;

namespace {

/// Updates cost 1 ms of manual time; renders record the alpha they were given.
class CountingScene final : public Scene {
 public:
  explicit CountingScene(ManualClock& clock) : clock_{clock} {}
  void fixed_update(Nanos step) override {
    clock_.advance(1_ms);
    simulated += step;
  }
  void render(double alpha, DrawList& out) override {
    alphas.push_back(alpha);
    out.circles.push_back({1, 2, 3, 0xff0000ff});
  }
  Nanos simulated{0};
  std::vector<double> alphas;

 private:
  ManualClock& clock_;
};

struct Rig {
  ManualClock clock;
  ManualWaiter waiter{clock};
  NullTarget target;
  CountingScene scene{clock};
  Loop loop{clock, waiter, target, scene};
  std::vector<pacer::FrameRecord> records;
  Rig() {
    target.on_draw = [this] { clock.advance(3_ms); };
    loop.on_record = [this](const pacer::FrameRecord& r) { records.push_back(r); };
  }
};

std::unique_ptr<pacer::Pacer> seed_pacer() {
  pacer::AdaptiveConfig cfg;
  cfg.initial_interval = 16_ms;
  cfg.shrink = false;
  pacer::FixedStepConfig sim;
  sim.step = 5_ms;
  return std::make_unique<pacer::AdaptivePolicy>(cfg, sim);
}

}  // namespace

TEST(Loop, RunsTheWorkedTimeline) {
  // Byte-identical logs with the simulator for every policy and display are in
  // test_equivalence.cpp; here, the seed's worked timeline through the real loop's parts.
  Rig rig;
  rig.loop.set_pacer(seed_pacer());
  const RunResult result = rig.loop.run({.max_frames = 40});
  EXPECT_EQ(result.frames, 40);
  EXPECT_FALSE(result.quit_requested);
  ASSERT_EQ(rig.records.size(), 40u);
  for (const auto& r : rig.records) EXPECT_EQ(r.timing_source, pacer::TimingSource::cpu);
  // Frame 1 starts at 16 and shows alpha 0.2.
  EXPECT_EQ(rig.records[1].cpu_start, 16_ms);
  EXPECT_DOUBLE_EQ(rig.scene.alphas[1], 0.2);
  EXPECT_EQ(rig.scene.simulated, rig.loop.pacer()->clock().simulated());
  EXPECT_EQ(rig.target.presents, 40);
}

TEST(Loop, SpaceTurnsInterpolationOff) {
  Rig rig;
  rig.loop.set_pacer(seed_pacer());
  rig.loop.set_interpolate(false);
  rig.loop.run({.max_frames = 5});
  for (double a : rig.scene.alphas) EXPECT_EQ(a, 1.0);
  EXPECT_LT(rig.records[1].alpha, 1.0) << "the pacer still plans the blend; the render ignores it";
}

TEST(Loop, SwitchingPoliciesKeepsFrameNumbersRunning) {
  Rig rig;
  rig.loop.set_pacer(seed_pacer());
  rig.loop.run({.max_frames = 10});
  rig.loop.set_pacer(pacer::make_pacer("flipcode", {}));
  rig.loop.run({.max_frames = 10});
  ASSERT_EQ(rig.records.size(), 20u);
  for (std::size_t i = 0; i < rig.records.size(); ++i) EXPECT_EQ(rig.records[i].frame, static_cast<std::int64_t>(i));
  EXPECT_EQ(rig.records[9].policy, "adaptive");
  EXPECT_EQ(rig.records[10].policy, "flipcode");
}

TEST(Loop, AMinimizedTargetWaitsWithoutDrawing) {
  class Minimized final : public FrameTarget {
   public:
    int not_ready = 3, waits = 0, draws = 0;
    bool acquire() override { return not_ready == 0; }
    bool wait_until_ready() override {
      ++waits;
      --not_ready;
      return true;
    }
    void draw(const DrawList&) override { ++draws; }
    pacer::PresentResult present(std::int64_t) override { return {}; }
  } target;
  ManualClock clock;
  ManualWaiter waiter{clock};
  CountingScene scene{clock};
  Loop loop{clock, waiter, target, scene};
  loop.set_pacer(seed_pacer());
  loop.run({.max_frames = 2});
  EXPECT_EQ(target.waits, 3);
  EXPECT_EQ(target.draws, 2);
}

TEST(Loop, PollReturningFalseQuitsAndTheLastFrameIsStillLogged) {
  Rig rig;
  int polls = 0;
  rig.loop.poll = [&] { return ++polls <= 3; };
  rig.loop.set_pacer(seed_pacer());
  const RunResult r = rig.loop.run({});
  EXPECT_TRUE(r.quit_requested);
  EXPECT_EQ(r.frames, 3);
  EXPECT_EQ(rig.records.size(), 3u);
}

TEST(Loop, StopsAfterTheDuration) {
  Rig rig;
  rig.loop.set_pacer(seed_pacer());
  const RunResult r = rig.loop.run({.max_duration = 100_ms});
  EXPECT_GE(r.duration, 100_ms);
  EXPECT_EQ(r.frames, 8);  // frames start at 0, 16, ..., 112: the one at 96 ends at 99, the one at 112 past 100
}

TEST(Loop, DisplayTimesReachTheLogAndThePacer) {
  // A target that learns each frame's display time one frame later (like present wait).
  class Reporting final : public FrameTarget {
   public:
    explicit Reporting(ManualClock& c) : clock_{c} {}
    bool acquire() override { return true; }
    void draw(const DrawList&) override { clock_.advance(3_ms); }
    pacer::PresentResult present(std::int64_t frame) override {
      presented_.push_back({frame, clock_.now() + 2_ms});
      return {};
    }
    bool reports_display() const override { return true; }
    void drain_displayed(const std::function<void(std::int64_t, Nanos)>& sink) override {
      for (const auto& [f, t] : presented_)
        if (t <= clock_.now()) sink(f, t);
      std::erase_if(presented_, [this](const auto& p) { return p.second <= clock_.now(); });
    }

   private:
    ManualClock& clock_;
    std::vector<std::pair<std::int64_t, Nanos>> presented_;
  };
  ManualClock clock;
  ManualWaiter waiter{clock};
  Reporting target{clock};
  CountingScene scene{clock};
  Loop loop{clock, waiter, target, scene};
  std::vector<pacer::FrameRecord> records;
  loop.on_record = [&](const pacer::FrameRecord& r) { records.push_back(r); };
  loop.set_pacer(seed_pacer());
  loop.run({.max_frames = 10});
  ASSERT_EQ(records.size(), 10u);
  for (std::size_t i = 0; i + 1 < records.size(); ++i) {
    ASSERT_TRUE(records[i].display.has_value()) << i;
    EXPECT_EQ(*records[i].display, records[i].present + 2_ms) << i;
    EXPECT_EQ(records[i].timing_source, pacer::TimingSource::present_wait);
  }
  EXPECT_FALSE(records.back().display.has_value()) << "the run ended before the last frame was shown";
}

// ---------------------------------------------------------------- clock jumps (issue 10)

namespace {

/// Every policy through the loop on a manual clock that the render hook steps backwards
/// by 5 s at frame 30 and forward by 10 s at frame 60, with protocol checks on.
struct JumpRun {
  std::vector<pacer::FrameRecord> records;
  RunResult result;
  std::int64_t steps_back = 0;
};

JumpRun run_with_jumps(std::string_view policy) {
  Rig rig;
  int draws = 0;
  rig.target.on_draw = [&] {
    rig.clock.advance(3_ms);
    ++draws;
    if (draws == 30) rig.clock.set(rig.clock.now() - 5'000_ms);
    if (draws == 60) rig.clock.advance(10'000_ms);
  };
  pacer::PolicyConfig cfg;
  cfg.sim.step = 5_ms;
  auto p = pacer::create_pacer(policy, cfg);
  p->set_protocol_checks(true);  // the engine's loop keeps the protocol's order
  rig.loop.set_pacer(std::move(p));
  JumpRun out;
  out.result = rig.loop.run({.max_frames = 100});
  out.records = rig.records;
  out.steps_back = rig.loop.clock_steps_back();
  return out;
}

}  // namespace

TEST(ClockJumps, BackwardsAndForwardStepsNeitherCrashNorBurstNorGoNegative) {
  for (const std::string_view policy : pacer::policy_names()) {
    SCOPED_TRACE(std::string{policy});
    const JumpRun run = run_with_jumps(policy);
    EXPECT_EQ(run.result.frames, 100);
    ASSERT_EQ(run.records.size(), 100u);
    EXPECT_EQ(run.steps_back, 1);
    EXPECT_GE(run.result.duration, 10'000_ms) << "the forward step is real elapsed time";
    const bool accumulator = policy.starts_with("accumulator");
    const bool variable = policy == "variable";
    for (std::size_t i = 0; i < run.records.size(); ++i) {
      const pacer::FrameRecord& r = run.records[i];
      EXPECT_GE(r.render, Nanos::zero()) << r.frame;
      EXPECT_GE(r.update, Nanos::zero()) << r.frame;
      EXPECT_GE(r.pacer_wait, Nanos::zero()) << r.frame;
      EXPECT_GE(r.present, r.cpu_start) << r.frame;
      EXPECT_GE(r.interval, Nanos::zero()) << r.frame;
      EXPECT_GE(r.alpha, 0.0) << r.frame;
      EXPECT_LE(r.alpha, 1.0) << r.frame;
      if (i > 0) {
        EXPECT_GE(r.cpu_start, run.records[i - 1].cpu_start) << r.frame;
      }
      // No burst: the step cap (8), or for the capless accumulator its 0.25 s clamp of 5 ms steps.
      EXPECT_LE(r.sim_steps, accumulator ? 51 : variable ? 1 : 8) << r.frame;
    }
    // The forward step is a stall: the 10 s are dropped (discard debt), not simulated.
    Nanos dropped{0};
    for (const auto& r : run.records) dropped += r.dropped;
    EXPECT_GE(dropped, 9'700_ms);
  }
}

TEST(ClockJumps, TheLoopsTimeHoldsWhereTheClockSteppedBack) {
  const JumpRun run = run_with_jumps("adaptive");
  // Frame 29 rendered when the clock went back 5 s: the next frame starts a few ms after it,
  // not 5 s before it, and not 5 s later either (the waiter's deadline moved with the clock).
  const Nanos gap = run.records[30].cpu_start - run.records[29].cpu_start;
  EXPECT_GE(gap, Nanos::zero());
  EXPECT_LT(gap, 100_ms);
}

TEST(Loop, AThrowingTargetStillHandsOverThePresentedFrames) {
  // A lost device: acquire throws at frame 20. Frames 0..19 were presented and reach
  // on_record before the exception leaves run().
  Rig rig;
  int acquires = 0;
  class Failing final : public FrameTarget {
   public:
    explicit Failing(int& n) : n_{n} {}
    bool acquire() override {
      if (n_++ == 20) throw std::runtime_error("vkWaitForFences failed: VK_ERROR_DEVICE_LOST");
      return true;
    }
    void draw(const DrawList&) override {}
    pacer::PresentResult present(std::int64_t) override { return {}; }

   private:
    int& n_;
  } target{acquires};
  std::vector<pacer::FrameRecord> records;
  Loop loop{rig.clock, rig.waiter, target, rig.scene};
  loop.on_record = [&](const pacer::FrameRecord& r) { records.push_back(r); };
  loop.set_pacer(seed_pacer());
  EXPECT_THROW(loop.run({.max_frames = 100}), std::runtime_error);
  ASSERT_EQ(records.size(), 20u);
  EXPECT_EQ(records.back().frame, 19);
}
