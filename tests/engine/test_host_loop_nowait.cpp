// Loop::pump(), the step that never waits (docs/host-loop.md, "A host that cannot wait"), on
// the manual clock: a host that calls pump() and moves the clock to each `next` it returns
// writes run()'s log byte for byte; a call before `next` does nothing; pump() and frame()
// mix; step and time-scale changes apply at the frame boundary as with frame().
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "engine/loop.hpp"
#include "pacer/display.hpp"
#include "pacer/log_writer.hpp"
#include "pacer/policies.hpp"
#include "pacer/simulator.hpp"
#include "virtual_display_target.hpp"

using namespace engine;
using namespace pacer::literals;
using pacer::Nanos;

namespace {

/// Updates cost 1 ms, renders 3-4 ms of manual time; never waits itself.
class Costs final : public Scene {
 public:
  explicit Costs(ManualClock& clock) : clock_{clock} {}
  void fixed_update(Nanos step) override {
    clock_.advance(1_ms);
    steps.push_back(step);
  }
  void render_frame(const FrameInfo& frame, DrawList&) override {
    clock_.advance(Nanos{3'000'000 + (frame.frame % 7) * 150'000});
    ++renders;
  }
  std::vector<Nanos> steps;
  int renders = 0;

 private:
  ManualClock& clock_;
};

struct Rig {
  ManualClock clock;
  ManualWaiter waiter{clock};
  pacer::DisplaySpec display;
  VirtualDisplayTarget target;
  Costs scene{clock};
  Loop loop{clock, waiter, target, scene};
  std::vector<pacer::FrameRecord> records;
  int polls = 0;
  Rig(std::string_view policy, std::string_view display_text, int frames)
      : display{[&] {
          pacer::SimOptions o;
          o.display = pacer::parse_display(display_text).value();
          return pacer::sim_display(o);
        }()},
        target{clock, display} {
    loop.on_record = [this](const pacer::FrameRecord& r) { records.push_back(r); };
    pacer::PolicyConfig cfg;
    cfg.sim.step = 5_ms;
    pacer::fit_to_display(cfg, display);
    loop.set_policy(policy, cfg);
    loop.poll = [this, frames] { return ++polls <= frames; };  // quits before frame `frames`
  }
};

std::string native_log(const std::vector<pacer::FrameRecord>& records) {
  std::ostringstream out;
  pacer::NativeLogWriter writer{out};
  for (const auto& r : records) writer.write(r);
  return out.str();
}

struct Pumped {
  int calls = 0, frames = 0, idle_calls = 0;
};

/// The host of a browser's main loop on the manual clock: pump(), then (when `next` is still
/// ahead) one early call that must do nothing, then the clock to `next`.
Pumped pump_until_quit(Rig& rig) {
  Pumped out;
  for (;;) {
    const PumpResult r = rig.loop.pump();
    ++out.calls;
    if (r.presented) ++out.frames;
    if (!r.running) break;
    EXPECT_GE(r.next, rig.loop.now());
    if (r.next > rig.loop.now()) {
      // Early: nothing runs, the same deadline comes back.
      const std::size_t steps = rig.scene.steps.size();
      const int renders = rig.scene.renders, polls = rig.polls;
      const Nanos at = rig.clock.now();
      const PumpResult early = rig.loop.pump();
      ++out.idle_calls;
      EXPECT_TRUE(early.running);
      EXPECT_FALSE(early.presented);
      EXPECT_EQ(early.next, r.next);
      EXPECT_EQ(rig.scene.steps.size(), steps);
      EXPECT_EQ(rig.scene.renders, renders);
      EXPECT_EQ(rig.polls, polls);
      EXPECT_EQ(rig.clock.now(), at);
      rig.clock.set(r.next);  // the loop's time is the clock's here (it never stepped back)
    }
  }
  rig.loop.finish();
  return out;
}

class PumpEveryPolicy : public ::testing::TestWithParam<std::string_view> {};

// [example]
/// A browser's main loop callback (emscripten_set_main_loop, requestAnimationFrame) or an
/// editor's idle handler: it must return at once, so it pumps and says when to come back.
engine::PumpResult on_animation_frame(engine::Loop& loop) {
  const engine::PumpResult r = loop.pump();  // what is due now: a frame, its updates; never waits
  if (!r.running) loop.finish();             // poll() or the window quit: the last records
  return r;                                  // call again at or after r.next (loop.now()'s clock)
}
// [example]

}  // namespace

TEST(HostLoopPump, TheDocumentedCallbackRunsTheLoop) {
  Rig rig{"adaptive", "fifo:60", 100};
  for (;;) {
    const PumpResult r = on_animation_frame(rig.loop);
    if (!r.running) break;
    if (r.next > rig.loop.now()) rig.clock.set(r.next);  // the browser calls back later
  }
  EXPECT_EQ(rig.records.size(), 100u);
}

TEST_P(PumpEveryPolicy, AHostCallingBackAtEachDeadlineWritesRunsLog) {
  for (const std::string_view display : {"fifo:60", "mailbox:60", "immediate", "immediate:60"}) {
    SCOPED_TRACE(std::string{GetParam()} + " on " + std::string{display});
    Rig a{GetParam(), display, 300}, b{GetParam(), display, 300};
    EXPECT_TRUE(a.loop.run({}).quit_requested);
    const Pumped p = pump_until_quit(b);
    ASSERT_EQ(a.records.size(), 300u);
    ASSERT_EQ(b.records.size(), 300u);
    EXPECT_EQ(native_log(a.records), native_log(b.records));
    EXPECT_EQ(a.scene.steps, b.scene.steps);
    EXPECT_EQ(a.polls, b.polls);
    EXPECT_EQ(p.frames, 300);
    EXPECT_EQ(b.loop.frames(), 300);
    EXPECT_EQ(b.waiter.stats().waits, 0) << "pump() never waits";
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, PumpEveryPolicy,
                         ::testing::ValuesIn(pacer::policy_names().begin(), pacer::policy_names().end()),
                         [](const auto& param_info) {
                           std::string n{param_info.param};
                           for (char& c : n) c = c == '-' ? '_' : c;
                           return n;
                         });

TEST(HostLoopPump, HoldsAndWaitsComeBackAsDeadlines) {
  // adaptive on FIFO plans presents and waits for its frame starts; accumulator-capped
  // waits for its limiter. Each comes back as a `next` ahead of now at least once a frame.
  for (const std::string_view policy : {"adaptive", "accumulator-capped"}) {
    SCOPED_TRACE(std::string{policy});
    Rig rig{policy, "fifo:60", 120};
    const Pumped p = pump_until_quit(rig);
    EXPECT_EQ(p.frames, 120);
    EXPECT_GE(p.idle_calls, 110) << "a deadline ahead after (nearly) every frame";
    ASSERT_EQ(rig.records.size(), 120u);
    Nanos waited{0};
    for (const auto& r : rig.records) waited += r.pacer_wait;
    EXPECT_GT(waited, 120 * 5_ms) << "the pacer's waits are in the log, as run()'s";
  }
}

TEST(HostLoopPump, MixesWithFrameAndAppliesChangesAtTheBoundary) {
  // pump() and frame() in turn, a time scale and a step change on the way: the same log,
  // the same world steps as frame() alone.
  Rig a{"adaptive", "fifo:60", 1'000}, b{"adaptive", "fifo:60", 1'000};
  auto script = [](Rig& rig, bool pump) {
    for (int i = 0; i < 241; ++i) {  // (the last one a frame(): the last frame runs no updates)
      if (i == 60) rig.loop.set_time_scale(2.0);
      if (i == 150) rig.loop.set_step(10_ms);
      if (pump && i % 3 != 0) {
        // pump() until it presents one frame, moving the clock to each deadline ahead.
        for (;;) {
          const PumpResult r = rig.loop.pump();
          ASSERT_TRUE(r.running);
          if (r.next > rig.loop.now()) rig.clock.set(r.next);
          if (r.presented) break;
        }
      } else {
        ASSERT_TRUE(rig.loop.frame());
      }
    }
    rig.loop.finish();
  };
  script(a, false);
  script(b, true);
  ASSERT_EQ(a.records.size(), 241u);
  ASSERT_EQ(b.records.size(), 241u);
  EXPECT_EQ(a.scene.steps, b.scene.steps);
  // pump() runs a frame's updates before it returns, frame() at the start of its next call:
  // the same protocol calls at the same times, so the same rows.
  EXPECT_EQ(native_log(a.records), native_log(b.records));
  for (std::size_t i = 60; i < b.records.size(); ++i) {
    EXPECT_EQ(b.records[i].dropped, Nanos::zero()) << i;
    EXPECT_EQ(b.records[i].events & (pacer::event_stall_clamp | pacer::event_step_cap), 0u) << i;
  }
}

TEST(HostLoopPump, FinishPresentsAHeldFrameAndQuitEndsTheRun) {
  Rig rig{"adaptive", "immediate:60", 1'000};  // shown when made: presents are held to their display time
  // Pump until a present is held (a deadline ahead with the frame rendered), then finish.
  int renders_at_hold = -1;
  for (int i = 0; i < 100 && renders_at_hold < 0; ++i) {
    const PumpResult r = rig.loop.pump();
    ASSERT_TRUE(r.running);
    if (r.next > rig.loop.now() && rig.scene.renders > rig.loop.frames()) {
      renders_at_hold = rig.scene.renders;
    } else if (r.next > rig.loop.now()) {
      rig.clock.set(r.next);
    }
  }
  ASSERT_GT(renders_at_hold, 0) << "adaptive on immediate:60 holds its presents";
  rig.loop.finish();
  EXPECT_EQ(rig.loop.frames(), renders_at_hold) << "the held frame is presented by finish()";
  EXPECT_EQ(static_cast<int>(rig.records.size()), renders_at_hold);
}
