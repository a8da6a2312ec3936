// The loop's render thread (Loop::set_render_thread): the render runs on a thread of its
// own, on a copy of the scene's state taken when the frame was planned; the simulation
// produces the same states whether threaded or not and whatever the render rate; the
// target is never touched by two threads at once. Real clock (a render thread holds
// presents on it), but nothing here asserts on how long anything took. Run under
// ThreadSanitizer in CI (FP_SANITIZE=thread).
#include <gtest/gtest.h>
#if defined(__linux__)
#include <pthread.h>
#endif

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/loop.hpp"
#include "engine/triple_buffer.hpp"
#include "pacer/policies.hpp"

using namespace engine;
using namespace pacer::literals;
using pacer::Nanos;

namespace {

void spin_for(Nanos d) {
  const auto end = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < end) {
  }
}

/// A world whose every state depends on all before it (the logistic map): any step taken
/// twice, skipped or reordered shows in the history.
class LogisticScene final : public Scene {
 public:
  void fixed_update(Nanos step) override {
    prev_world_ = world_;
    world_ += step;
    x_ = 3.9 * x_ * (1 - x_);
    history.push_back(x_);
    spin_for(update_cost);
  }
  void render_frame(const FrameInfo&, DrawList&) override { ++renders_here; }

  struct State final : RenderState {
    Nanos previous{0}, current{0};
    double x = 0;
    std::thread::id captured_on;
  };
  std::unique_ptr<RenderState> make_render_state() const override { return std::make_unique<State>(); }
  void capture(const FrameInfo&, RenderState& into) override {
    auto& s = static_cast<State&>(into);
    s.previous = prev_world_;
    s.current = world_;
    s.x = x_;
    s.captured_on = std::this_thread::get_id();
  }
  void render_state(const FrameInfo& f, const RenderState& state, DrawList& out) override {
    const auto& s = static_cast<const State&>(state);
    Drawn d;
    d.frame = f.frame;
    d.thread = std::this_thread::get_id();
#if defined(__linux__)
    char name[16] = {};
    pthread_getname_np(pthread_self(), name, sizeof name);
    d.thread_name = name;
#endif
    d.captured_on = s.captured_on;
    d.matches = s.previous == f.world_previous && s.current == f.world_current && f.render_thread;
    drawn.push_back(d);
    out.circles.push_back({static_cast<float>(s.x), 0, 1, 0xffffffff});
    spin_for(render_cost);
  }

  struct Drawn {
    std::int64_t frame = 0;
    std::thread::id thread, captured_on;
    std::string thread_name;  ///< Linux: the drawing thread's name
    bool matches = false;  ///< the copy is the state the frame was planned on
  };
  std::vector<double> history;
  std::vector<Drawn> drawn;  ///< written by the render thread; read after finish()
  int renders_here = 0;
  Nanos update_cost{0}, render_cost{0};

 private:
  Nanos prev_world_{0}, world_{0};
  double x_ = 0.3;
};

/// A target that checks that no two calls overlap, and can fail a draw.
class CheckedTarget final : public FrameTarget {
 public:
  bool acquire() override {
    enter();
    leave();
    if (minimized > 0) {
      --minimized;
      return false;  // a minimized window: the loop waits in wait_until_ready and asks again
    }
    return true;
  }
  bool wait_until_ready() override {
    ++waits_for_ready;
    return true;
  }
  void draw(const DrawList&) override {
    enter();
    if (fail_at >= 0 && draws == fail_at) {
      leave();
      throw std::runtime_error("device lost");
    }
    ++draws;
    leave();
  }
  pacer::PresentResult present(std::int64_t) override {
    enter();
    ++presents;
    leave();
    return {};
  }
  bool enter() {
    if (busy.exchange(true)) overlaps.fetch_add(1);
    return true;
  }
  bool leave() {
    busy.store(false);
    return true;
  }
  std::atomic<bool> busy{false};
  std::atomic<int> overlaps{0};
  std::int64_t draws = 0, presents = 0;  ///< render thread (and the acquiring thread, never at once)
  std::int64_t fail_at = -1;
  int minimized = 0, waits_for_ready = 0;  ///< the acquiring (simulation) thread's
};

struct Rig {
  SteadyClock clock;
  PreciseWaiter waiter{clock};
  CheckedTarget target;
  LogisticScene scene;
  Loop loop{clock, waiter, target, scene};
  std::vector<pacer::FrameRecord> records;
  explicit Rig(const std::string& policy = "adaptive") {
    pacer::PolicyConfig c;
    c.sim.step = 1_ms;
    c.adaptive.min_interval = 2_ms;
    c.adaptive.initial_interval = 2_ms;
    c.capped_interval = 2_ms;
    loop.set_policy(policy, c);
    loop.on_record = [this](const pacer::FrameRecord& r) { records.push_back(r); };
  }
};

}  // namespace

TEST(TripleBuffer, TheReaderGetsTheNewestValueOnce) {
  TripleBuffer<int> b{0};
  EXPECT_FALSE(b.take());
  b.back() = 1;
  b.publish();
  b.back() = 2;
  b.publish();  // replaces 1 before the reader looked
  ASSERT_TRUE(b.take());
  EXPECT_EQ(b.front(), 2);
  EXPECT_FALSE(b.take());
  EXPECT_EQ(b.front(), 2);  // still readable
  b.back() = 3;
  b.publish();
  ASSERT_TRUE(b.take());
  EXPECT_EQ(b.front(), 3);
}

TEST(TripleBuffer, TwoThreadsSeeWholeValuesInOrder) {
  struct Pair {
    std::int64_t a = 0, b = 0;  // written together: a torn read has a != b
  };
  TripleBuffer<Pair> buf;
  constexpr std::int64_t n = 20000;
  std::thread writer{[&] {
    for (std::int64_t i = 1; i <= n; ++i) {
      buf.back() = {i, i};
      buf.publish();
    }
  }};
  std::int64_t last = 0, torn = 0, backwards = 0;
  while (last < n) {
    if (!buf.take()) continue;
    const Pair p = buf.front();
    if (p.a != p.b) ++torn;
    if (p.a <= last) ++backwards;
    last = p.a;
  }
  writer.join();
  EXPECT_EQ(torn, 0);
  EXPECT_EQ(backwards, 0);
  EXPECT_EQ(last, n);
}

TEST(RenderThread, DrawsEveryFrameOnItsOwnThreadFromACopyTakenOnTheLoops) {
  Rig rig;
  rig.scene.render_cost = 1_ms;
  rig.loop.set_render_thread(true);
  const RunResult run = rig.loop.run({.max_frames = 60});
  ASSERT_EQ(run.frames, 60);
  EXPECT_EQ(rig.scene.renders_here, 0) << "render_frame is not called with a render thread";
  ASSERT_EQ(rig.scene.drawn.size(), 60u);
  const auto loop_thread = std::this_thread::get_id();
  for (std::size_t i = 0; i < rig.scene.drawn.size(); ++i) {
    const auto& d = rig.scene.drawn[i];
    EXPECT_EQ(d.frame, static_cast<std::int64_t>(i));
    EXPECT_NE(d.thread, loop_thread);
#if defined(__linux__)
    EXPECT_EQ(d.thread_name, "fp-render") << "named for profilers and top -H";
#endif
    EXPECT_EQ(d.captured_on, loop_thread);
    EXPECT_TRUE(d.matches) << "frame " << d.frame << ": the copy is not the state the frame was planned on";
  }
  EXPECT_EQ(rig.target.draws, 60);
  EXPECT_EQ(rig.target.presents, 60);
  EXPECT_EQ(rig.target.overlaps.load(), 0);
}

TEST(RenderThread, EveryRecordIsWholeWithTheRenderThreadsPresentAsItsDisplayTime) {
  Rig rig;
  rig.loop.set_render_thread(true);
  rig.loop.run({.max_frames = 50});
  ASSERT_EQ(rig.records.size(), 50u);
  for (std::size_t i = 0; i < rig.records.size(); ++i) {
    const pacer::FrameRecord& r = rig.records[i];
    EXPECT_EQ(r.frame, static_cast<std::int64_t>(i));
    ASSERT_TRUE(r.display.has_value()) << "frame " << i;
    EXPECT_GE(*r.display, r.cpu_start) << "shown after it was planned";
    EXPECT_EQ(r.timing_source, pacer::TimingSource::cpu);
  }
}

TEST(RenderThread, TheSimulationIsTheSameThreadedOrNotAndAtAnyRenderRate) {
  // The same world, stepped by the same pacer: on one thread; threaded with a cheap render;
  // threaded with a render ten times the update. The frame rates differ, so the runs take
  // different numbers of steps; every step they share must give the same state, bit for bit.
  auto history = [](bool threaded, Nanos render, const std::string& policy) {
    Rig rig{policy};
    rig.scene.update_cost = 100_us;
    rig.scene.render_cost = render;
    rig.loop.set_render_thread(threaded);
    rig.loop.run({.max_frames = 80});
    return rig.scene.history;
  };
  for (const std::string policy : {"adaptive", "accumulator-capped"}) {
    const std::vector<double> one = history(false, 0_ms, policy);
    for (const Nanos render : {0_ms, 1_ms}) {
      const std::vector<double> two = history(true, render, policy);
      const std::size_t n = std::min(one.size(), two.size());
      ASSERT_GT(n, 40u) << policy;
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(one[i], two[i]) << policy << ": step " << i;
    }
  }
}

TEST(RenderThread, TheTargetIsTouchedByOneThreadAtATime) {
  Rig rig;
  rig.scene.render_cost = 500_us;
  rig.loop.set_render_thread(true);
  int calls = 0, while_busy = 0, on_other_thread = 0;
  const auto loop_thread = std::this_thread::get_id();
  rig.loop.on_presented = [&](const pacer::FramePlan&) {
    rig.loop.when_target_idle([&] {
      ++calls;
      if (rig.target.busy.load()) ++while_busy;
      if (std::this_thread::get_id() != loop_thread) ++on_other_thread;
    });
  };
  rig.loop.run({.max_frames = 40});
  EXPECT_EQ(calls, 40) << "every queued call runs, the last in finish()";
  EXPECT_EQ(while_busy, 0);
  EXPECT_EQ(on_other_thread, 0);
  EXPECT_EQ(rig.target.overlaps.load(), 0);
}

TEST(RenderThread, ASceneWithoutARenderStateIsRefused) {
  struct Plain final : Scene {
    void fixed_update(Nanos) override {}
  } plain;
  SteadyClock clock;
  PreciseWaiter waiter{clock};
  NullTarget target;
  Loop loop{clock, waiter, target, plain};
  EXPECT_THROW(loop.set_render_thread(true), std::logic_error);
  EXPECT_FALSE(loop.render_thread());
}

TEST(RenderThread, AFaultOnTheRenderThreadEndsTheRunWithTheFramesAlreadyPresented) {
  Rig rig;
  rig.target.fail_at = 10;
  rig.loop.set_render_thread(true);
  try {
    rig.loop.run({.max_frames = 100});
    FAIL() << "the render thread's exception reaches the caller";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "device lost");
  }
  // Frames 0-9 were drawn and presented; frame 10's job failed; the loop learnt of it at
  // the next frame's acquire. Every frame handed over before then is logged, in order.
  ASSERT_GE(rig.records.size(), 10u);
  for (std::size_t i = 0; i < rig.records.size(); ++i) EXPECT_EQ(rig.records[i].frame, static_cast<std::int64_t>(i));
}

TEST(RenderThread, SwitchesOnAndOffBetweenFrames) {
  Rig rig;
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(rig.loop.frame());
  rig.loop.set_render_thread(true);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(rig.loop.frame());
  rig.loop.set_render_thread(false);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(rig.loop.frame());
  rig.loop.finish();
  EXPECT_EQ(rig.scene.renders_here, 20);
  EXPECT_EQ(rig.scene.drawn.size(), 10u);
  ASSERT_EQ(rig.records.size(), 30u);
  EXPECT_EQ(rig.target.overlaps.load(), 0);
}

TEST(RenderThread, AMinimizedWindowWaitsOnTheSimulationThread) {
  Rig rig;
  rig.loop.set_render_thread(true);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(rig.loop.frame());
  rig.target.minimized = 3;  // the next acquire fails three times
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(rig.loop.frame());
  rig.loop.finish();
  EXPECT_EQ(rig.target.waits_for_ready, 3);
  EXPECT_EQ(rig.target.presents, 10);
  EXPECT_EQ(rig.records.size(), 10u);
  EXPECT_EQ(rig.target.overlaps.load(), 0);
}
