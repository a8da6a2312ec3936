// The loop a host owns (docs/host-loop.md), on the manual clock: frame() by frame() writes
// the same log as run(); pause, time scale, the variable update, run-time step and config
// changes, input delivery and the rolling stats.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "engine/loop.hpp"
#include "pacer/adaptive.hpp"
#include "pacer/display.hpp"
#include "pacer/log_writer.hpp"
#include "pacer/policies.hpp"
#include "pacer/simulator.hpp"
#include "virtual_display_target.hpp"
#include "pacer/stats.hpp"

using namespace engine;
using namespace pacer::literals;
using pacer::Nanos;

namespace {

/// Updates cost 1 ms, renders 3 ms of manual time (plus a little jitter so policies react).
/// Records what the scene was handed: steps, frame infos, input.
class Recorder final : public Scene {
 public:
  explicit Recorder(ManualClock& clock) : clock_{clock} {}
  void fixed_update(Nanos step) override {
    clock_.advance(1_ms);
    steps.push_back(step);
    step_frames.push_back(frames.size());  // updates after the render of frames.size() frames
    world += step;
    ++updates_since_render;
  }
  void update(Nanos dt, const FrameInfo& frame) override {
    dts.push_back(dt);
    EXPECT_EQ(dt, frame.dt);
  }
  void render_frame(const FrameInfo& frame, DrawList&) override {
    frames.push_back(frame);
    updates_per_frame.push_back(updates_since_render);
    updates_since_render = 0;
    clock_.advance(Nanos{3'000'000 + (frame.frame % 7) * 150'000});
  }
  void on_input(const InputEvent& e) override {
    inputs.push_back(e);
    input_frames.push_back(frames.size());
    EXPECT_EQ(dts.size(), frames.size()) << "input comes before the frame's update";
  }
  void attached(Loop& loop) override { loop_ = &loop; }

  Loop* loop_ = nullptr;
  std::vector<Nanos> steps, dts;
  std::vector<std::size_t> step_frames, input_frames;
  std::vector<FrameInfo> frames;
  std::vector<int> updates_per_frame;
  std::vector<InputEvent> inputs;
  int updates_since_render = 0;
  Nanos world{0};

 private:
  ManualClock& clock_;
};

pacer::DisplaySpec fifo60() {
  pacer::SimOptions o;
  o.display = pacer::parse_display("fifo:60").value();
  return pacer::sim_display(o);
}

pacer::PolicyConfig config_for(const pacer::DisplaySpec& display, Nanos step = 5_ms) {
  pacer::PolicyConfig cfg;
  cfg.sim.step = step;
  pacer::fit_to_display(cfg, display);
  return cfg;
}

struct Rig {
  ManualClock clock;
  ManualWaiter waiter{clock};
  pacer::DisplaySpec display = fifo60();
  VirtualDisplayTarget target{clock, display};
  Recorder scene{clock};
  Loop loop{clock, waiter, target, scene};
  std::vector<pacer::FrameRecord> records;
  explicit Rig(std::string_view policy = "adaptive", Nanos step = 5_ms) {
    loop.on_record = [this](const pacer::FrameRecord& r) { records.push_back(r); };
    loop.set_policy(policy, config_for(display, step));
  }
  void frames(int n) {
    for (int i = 0; i < n; ++i) ASSERT_TRUE(loop.frame());
  }
};

std::string native_log(const std::vector<pacer::FrameRecord>& records) {
  std::ostringstream out;
  pacer::NativeLogWriter writer{out};
  for (const auto& r : records) writer.write(r);
  return out.str();
}

double ms(Nanos d) { return pacer::to_ms(d); }

}  // namespace

TEST(HostLoop, StepWiseFramesWriteTheSameLogAsRun) {
  for (const std::string_view policy : pacer::policy_names()) {
    SCOPED_TRACE(std::string{policy});
    Rig a{policy}, b{policy};
    int polls_a = 0, polls_b = 0;
    a.loop.poll = [&] { return ++polls_a > 0; };
    b.loop.poll = [&] { return ++polls_b > 0; };
    const RunResult r = a.loop.run({.max_frames = 300});
    ASSERT_EQ(r.frames, 300);
    for (int i = 0; i < 300; ++i) ASSERT_TRUE(b.loop.frame());
    b.loop.finish();
    ASSERT_EQ(a.records.size(), 300u);
    ASSERT_EQ(b.records.size(), 300u);
    EXPECT_EQ(native_log(a.records), native_log(b.records));
    EXPECT_EQ(polls_a, polls_b);
    EXPECT_EQ(a.scene.steps, b.scene.steps);
    EXPECT_EQ(b.loop.frames(), 300);
  }
}

TEST(HostLoop, AStepWiseRunThatPollQuitsEndsLikeRun) {
  Rig a, b;
  int na = 0, nb = 0;
  a.loop.poll = [&] { return ++na <= 50; };
  b.loop.poll = [&] { return ++nb <= 50; };
  EXPECT_TRUE(a.loop.run({}).quit_requested);
  int frames = 0;
  while (b.loop.frame()) ++frames;
  b.loop.finish();
  EXPECT_EQ(frames, 50);
  EXPECT_EQ(native_log(a.records), native_log(b.records));
}

TEST(HostLoop, PauseStopsWorldTimeWithNoDebtAndNoStalls) {
  for (const std::string_view policy : pacer::policy_names()) {
    SCOPED_TRACE(std::string{policy});
    Rig rig{policy};
    rig.frames(120);
    const std::size_t updates_before = rig.scene.steps.size();
    rig.loop.pause();
    EXPECT_TRUE(rig.loop.paused());
    rig.frames(180);  // 3 s paused
    ASSERT_EQ(rig.scene.frames.size(), 300u);
    const FrameInfo& first_paused = rig.scene.frames[120];
    EXPECT_TRUE(first_paused.paused);
    // The frame that paused ran the updates of the frame before it; after it, none.
    const std::size_t at_pause =
        static_cast<std::size_t>(std::count_if(rig.scene.step_frames.begin(), rig.scene.step_frames.end(),
                                               [](std::size_t f) { return f <= 121; }));
    EXPECT_EQ(rig.scene.steps.size(), at_pause);
    EXPECT_LE(rig.scene.steps.size() - updates_before, 8u);
    for (std::size_t i = 121; i < 300; ++i) {
      const FrameInfo& f = rig.scene.frames[i];
      EXPECT_TRUE(f.paused);
      EXPECT_EQ(f.world_time, first_paused.world_time) << i;
      EXPECT_EQ(f.alpha, first_paused.alpha) << i;
      EXPECT_EQ(f.dt, Nanos::zero()) << i;
      EXPECT_GT(f.real_dt, Nanos::zero()) << i;
    }
    rig.loop.finish();
    // The pacer went on pacing: nothing dropped, no stall clamp or step cap while paused.
    for (std::size_t i = 121; i < rig.records.size(); ++i) {
      const pacer::FrameRecord& r = rig.records[i];
      EXPECT_EQ(r.dropped, Nanos::zero()) << r.frame;
      EXPECT_EQ(r.events & (pacer::event_stall_clamp | pacer::event_step_cap), 0u) << r.frame;
    }
  }
}

TEST(HostLoop, ResumeHasNoBurstAndWorldTimeGoesOnFromThePause) {
  for (const std::string_view policy : pacer::policy_names()) {
    SCOPED_TRACE(std::string{policy});
    Rig rig{policy};
    rig.frames(120);
    const int normal_max = *std::max_element(rig.scene.updates_per_frame.begin() + 10, rig.scene.updates_per_frame.end());
    rig.loop.pause();
    rig.frames(180);
    const Nanos held = rig.scene.frames.back().world_time;
    const Nanos world_at_pause = rig.scene.world;
    rig.loop.resume();
    EXPECT_FALSE(rig.loop.paused());
    rig.frames(240);
    rig.loop.finish();
    const auto& f = rig.scene.frames;
    ASSERT_EQ(f.size(), 540u);
    EXPECT_FALSE(f[300].paused);
    // The first frame after the pause still shows the held picture; the first update
    // releases it, at most two steps on (the scene's state had moved one step past it).
    EXPECT_EQ(f[300].world_time, held);
    EXPECT_EQ(f[300].world_current, world_at_pause);
    EXPECT_LE(f[301].world_time - held, f[301].start - f[300].start + 10_ms);
    // No burst: never more updates in a frame than before the pause.
    for (std::size_t i = 300; i < f.size(); ++i) {
      EXPECT_LE(rig.scene.updates_per_frame[i], std::max(normal_max, 1)) << i;
      EXPECT_GE(f[i].world_time, f[i - 1].world_time) << "world time never goes back, frame " << i;
    }
    // ... and world time runs at real time again: 4 s in 240 frames at 60 Hz.
    const double world_ms = ms(f.back().world_time - f[300].world_time);
    const double real_ms = ms(f.back().start - f[300].start);
    EXPECT_NEAR(world_ms, real_ms, 2 * 5.0 + 17);
    for (std::size_t i = 300; i < rig.records.size(); ++i)
      EXPECT_EQ(rig.records[i].events & pacer::event_stall_clamp, 0u) << i;
  }
}

TEST(HostLoop, TimeScaleRunsWorldTimeAtThatRateWithTheSameStep) {
  for (const double k : {0.5, 2.0}) {
    for (const std::string_view policy : {"adaptive", "accumulator-capped", "flipcode", "swappy", "framepace"}) {
      SCOPED_TRACE(std::string{policy} + " x" + std::to_string(k));
      Rig rig{policy};
      rig.frames(60);
      rig.loop.set_time_scale(k);
      EXPECT_EQ(rig.loop.time_scale(), k);
      rig.frames(600);  // 10 s
      rig.loop.finish();
      const auto& f = rig.scene.frames;
      for (Nanos s : rig.scene.steps) EXPECT_EQ(s, 5_ms);  // the fixed step stays fixed
      const std::size_t from = 90;  // well after the switch at frame 60
      const double world_ms = ms(f.back().world_time - f[from].world_time);
      const double real_ms = ms(f.back().start - f[from].start);
      EXPECT_NEAR(world_ms / real_ms, k, 0.01) << world_ms << " ms of world in " << real_ms << " ms";
      for (std::size_t i = from; i < f.size(); ++i) EXPECT_EQ(f[i].time_scale, k);
      // The switch (the pacer's step changed in place at frame 60) never steps back, and the
      // world never advances more than the frame's own gap (scaled) and a few steps.
      for (std::size_t i = 10; i < f.size(); ++i) {
        const Nanos advance = f[i].world_time - f[i - 1].world_time;
        EXPECT_GE(advance, Nanos::zero()) << i;
        EXPECT_LE(advance, Nanos{std::llround(static_cast<double>(f[i].real_dt.count()) * k)} + 15_ms) << i;
      }
      // The pacer carries on: nothing dropped at the switch or after it.
      for (std::size_t i = 30; i < rig.records.size(); ++i) EXPECT_EQ(rig.records[i].dropped, Nanos::zero()) << i;
    }
  }
}

TEST(HostLoop, TheVariableUpdateGetsTheFrameGapTimesTheScale) {
  Rig rig;
  rig.frames(30);
  rig.loop.set_time_scale(0.5);
  rig.frames(30);
  rig.loop.pause();
  rig.frames(10);
  rig.loop.finish();
  const auto& f = rig.scene.frames;
  ASSERT_EQ(rig.scene.dts.size(), f.size());
  EXPECT_EQ(rig.scene.dts[0], Nanos::zero());
  for (std::size_t i = 1; i < f.size(); ++i) {
    const Nanos gap = f[i].start - f[i - 1].start;
    EXPECT_EQ(f[i].real_dt, gap) << i;
    const double k = i < 30 ? 1.0 : 0.5;
    const Nanos want = f[i].paused ? Nanos::zero() : Nanos{std::llround(static_cast<double>(gap.count()) * k)};
    EXPECT_EQ(rig.scene.dts[i], want) << i;
  }
  EXPECT_GT(rig.scene.dts[45], Nanos::zero());
}

TEST(HostLoop, AStepChangeTakesEffectAtTheNextFrame) {
  Rig rig;
  rig.frames(50);
  rig.loop.set_step(10_ms);
  EXPECT_EQ(rig.loop.step(), 10_ms);
  rig.frames(50);
  rig.loop.finish();
  // Updates after frame 49's render (run at the start of the next frame() call) are still
  // frame 49's: 5 ms. Those after frame 50's render, the first with the new step, are 10 ms.
  bool saw_new = false;
  for (std::size_t i = 0; i < rig.scene.steps.size(); ++i) {
    if (rig.scene.step_frames[i] <= 50) {
      EXPECT_EQ(rig.scene.steps[i], 5_ms) << i;
    } else {
      EXPECT_EQ(rig.scene.steps[i], 10_ms) << i;
      saw_new = true;
    }
  }
  EXPECT_TRUE(saw_new);
  EXPECT_EQ(rig.scene.frames[50].step, 10_ms);
  EXPECT_EQ(rig.scene.frames[49].step, 5_ms);
  EXPECT_THROW(rig.loop.set_step(Nanos::zero()), std::invalid_argument);
}

TEST(HostLoop, StepAndTimeScaleChangesKeepThePacerAndItsInterval) {
  // Time scale 2, then a 10 ms step, with adaptive on a 60 Hz FIFO display: the pacer in use
  // takes the new real-time step in place (the same object, its display mode, grid and
  // interval kept), so the frames after each switch log no dropped time, no stall clamp
  // and no step cap, and plan with the interval in force before it.
  Rig rig{"adaptive"};
  rig.frames(120);
  const pacer::Pacer* const pacer = rig.loop.pacer();
  const auto* adaptive = dynamic_cast<const pacer::AdaptivePolicy*>(pacer);
  ASSERT_NE(adaptive, nullptr);
  ASSERT_TRUE(adaptive->display_mode());
  const Nanos interval = pacer->interval();
  const Nanos period = adaptive->grid().period();
  rig.loop.set_time_scale(2.0);
  rig.frames(120);
  EXPECT_EQ(rig.loop.pacer(), pacer) << "the same pacer, not a fresh one";
  EXPECT_EQ(pacer->clock().step(), 2'500_us) << "5 ms of world time at 2x";
  EXPECT_EQ(pacer->interval(), interval);
  rig.loop.set_step(10_ms);
  rig.frames(120);
  rig.loop.finish();
  EXPECT_EQ(rig.loop.pacer(), pacer);
  EXPECT_EQ(pacer->clock().step(), 5_ms) << "10 ms of world time at 2x";
  EXPECT_TRUE(adaptive->display_mode());
  EXPECT_EQ(adaptive->grid().period(), period);
  EXPECT_EQ(pacer->interval(), interval);
  ASSERT_EQ(rig.records.size(), 360u);
  for (std::size_t i = 100; i < rig.records.size(); ++i) {
    const pacer::FrameRecord& r = rig.records[i];
    EXPECT_EQ(r.dropped, Nanos::zero()) << r.frame;
    EXPECT_EQ(r.events & (pacer::event_stall_clamp | pacer::event_step_cap), 0u) << r.frame;
    EXPECT_EQ(r.interval, rig.records[119].interval) << r.frame;
    EXPECT_EQ(r.policy, "adaptive");
  }
  // The scene's steps: 5 ms (before and at 2x), then 10 ms, each world step as asked.
  for (std::size_t i = 0; i < rig.scene.steps.size(); ++i)
    EXPECT_EQ(rig.scene.steps[i], rig.scene.step_frames[i] <= 240 ? 5_ms : 10_ms) << i;
  // World time runs at twice real time after the first switch, with no jump at either.
  const auto& f = rig.scene.frames;
  for (std::size_t i = 130; i < f.size(); ++i) {
    const Nanos advance = f[i].world_time - f[i - 1].world_time;
    EXPECT_GE(advance, Nanos::zero()) << i;
    EXPECT_LE(advance, 2 * f[i].real_dt + 10_ms) << i;
  }
  const double world_ms = ms(f.back().world_time - f[130].world_time);
  const double real_ms = ms(f.back().start - f[130].start);
  EXPECT_NEAR(world_ms / real_ms, 2.0, 0.02);
}

TEST(HostLoop, ConfigChangesWhereThePolicyAllows) {
  Rig capped{"accumulator-capped"};
  capped.frames(30);
  EXPECT_TRUE(capped.loop.set_target_interval(50_ms));
  capped.frames(30);
  capped.loop.finish();
  EXPECT_EQ(capped.loop.pacing().capped_interval, 50_ms);
  const auto& f = capped.scene.frames;
  for (std::size_t i = 32; i < f.size(); ++i) EXPECT_GE(f[i].real_dt, 49_ms) << i;

  Rig flip{"flipcode"};
  EXPECT_FALSE(flip.loop.set_target_interval(50_ms)) << "flipcode has no frame-rate target";
  EXPECT_THROW(flip.loop.set_policy("nonesuch", {}), std::invalid_argument);
  EXPECT_EQ(flip.loop.policy(), "flipcode");
  pacer::PolicyConfig bad;
  bad.sim.max_steps_per_frame = 0;
  EXPECT_THROW(flip.loop.set_pacing(bad), std::invalid_argument);
  flip.frames(10);
  flip.loop.set_policy("adaptive", config_for(flip.display));
  flip.frames(10);
  flip.loop.set_pacing(flip.loop.pacing());  // its own config, as the demo key P passes it
  EXPECT_EQ(flip.loop.pacing().sim.step, 5_ms);
  flip.frames(10);
  flip.loop.finish();
  EXPECT_EQ(flip.records[9].policy, "flipcode");
  EXPECT_EQ(flip.records[10].policy, "adaptive");
}

TEST(HostLoop, InputReachesTheSceneAtTheNextFrameInOrder) {
  Rig rig;
  rig.frames(5);
  InputEvent a;
  a.kind = InputEvent::Kind::key;
  a.key = keys::space;
  InputEvent b;
  b.kind = InputEvent::Kind::cursor;
  b.x = 10;
  b.y = 20;
  rig.loop.push_input(a);
  rig.loop.push_input(b);
  EXPECT_TRUE(rig.scene.inputs.empty());
  rig.frames(2);
  ASSERT_EQ(rig.scene.inputs.size(), 2u);
  EXPECT_EQ(rig.scene.inputs[0].key, keys::space);
  EXPECT_EQ(rig.scene.inputs[1].x, 10);
  EXPECT_EQ(rig.scene.input_frames[0], 5u) << "delivered before frame 5's render";
  EXPECT_EQ(rig.scene.loop_, &rig.loop) << "the scene knows its loop";
}

TEST(HostLoop, RollingStatsAreTheSummaryOfTheLatestFrames) {
  Rig rig;
  rig.loop.set_stats_window(100);
  rig.frames(450);
  rig.loop.finish();
  const RollingStats& s = rig.loop.stats();
  EXPECT_EQ(s.size(), 100u);
  EXPECT_EQ(s.total(), 450);
  const std::vector<pacer::FrameRecord> last(rig.records.end() - 100, rig.records.end());
  const pacer::Summary want = pacer::summarize(last, {.warmup_frames = 0});
  EXPECT_EQ(s.records().front().frame, 350);
  EXPECT_DOUBLE_EQ(s.fps(), want.average_fps);
  EXPECT_DOUBLE_EQ(s.p99_frame_ms(), want.interval_p99_ms);
  EXPECT_DOUBLE_EQ(s.p99_anim_error_ms(), want.anim_error_p99_ms);
  EXPECT_EQ(s.stutters(), want.stutters);
  EXPECT_EQ(s.summary().frames, want.frames);
  EXPECT_NEAR(s.fps(), 60.0, 1.0);
}

TEST(HostLoop, PauseNeedsAPolicyTheLoopCanRebuild) {
  Rig rig;
  rig.loop.set_pacer(pacer::make_pacer("adaptive", config_for(rig.display)));
  EXPECT_THROW(rig.loop.pause(), std::logic_error);
  EXPECT_THROW(rig.loop.set_time_scale(2), std::logic_error);
}
