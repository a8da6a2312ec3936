// The virtual display and the wait model: FIFO vblank latching, one frame per
// vblank, blocking acquire, mailbox replacement, immediate, vrr; seeded wakes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "pacer/adaptive.hpp"
#include "pacer/baselines.hpp"
#include "pacer/display.hpp"
#include "pacer/os_sleep_model.hpp"
#include "pacer/simulator.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {
DisplaySpec fifo_100hz() {  // 10 ms: round numbers
  DisplaySpec s;
  s.mode = PresentMode::fifo;
  s.period = 10_ms;
  return s;
}
}  // namespace

TEST(DisplaySpec, ParsesEveryMode) {
  EXPECT_EQ(parse_display("fifo:60")->period, 16'666'667_ns);
  EXPECT_EQ(parse_display("fifo:60")->mode, PresentMode::fifo);
  EXPECT_EQ(parse_display("mailbox:144")->period, 6'944'444_ns);
  EXPECT_EQ(parse_display("immediate")->mode, PresentMode::immediate);
  EXPECT_EQ(parse_display("none")->mode, PresentMode::none);
  EXPECT_EQ(parse_display("offscreen")->mode, PresentMode::offscreen);
  EXPECT_EQ(to_string(*parse_display("offscreen")), "offscreen");
  EXPECT_FALSE(parse_display("offscreen:60"));
  EXPECT_FALSE(parse_display("none:60"));
  const auto vrr = parse_display("vrr:48-144");
  ASSERT_TRUE(vrr);
  EXPECT_EQ(vrr->period, 6'944'444_ns);
  EXPECT_EQ(vrr->max_period, 20'833'333_ns);
  EXPECT_EQ(vrr->fixed_period(), 0_ns);
  EXPECT_EQ(parse_display("fifo:60")->fixed_period(), 16'666'667_ns);
  // A FIFO or mailbox whose rate nobody knows (the engine's under Xvfb): no grid, written back
  // as it was read (it was "fifo:inf", which nothing could parse).
  ASSERT_TRUE(parse_display("fifo"));
  EXPECT_EQ(parse_display("fifo")->mode, PresentMode::fifo);
  EXPECT_EQ(parse_display("fifo")->period, 0_ns);
  EXPECT_EQ(parse_display("fifo")->fixed_period(), 0_ns);
  EXPECT_EQ(to_string(*parse_display("fifo")), "fifo");
  EXPECT_EQ(to_string(*parse_display("mailbox")), "mailbox");
  DisplaySpec no_rate;
  no_rate.mode = PresentMode::fifo;
  EXPECT_EQ(to_string(no_rate), "fifo");
  EXPECT_FALSE(parse_display("fifo@59.94"));
  EXPECT_FALSE(parse_display("fifo,jitter=50us"));
  EXPECT_FALSE(parse_display("fifo:"));
  EXPECT_FALSE(parse_display("fifo:0"));
  EXPECT_FALSE(parse_display("fifo:abc"));
  EXPECT_FALSE(parse_display("vrr:144-48"));
  EXPECT_FALSE(parse_display("tv"));
  EXPECT_EQ(to_string(*parse_display("vrr:48-144")), "vrr:48-144");
  EXPECT_EQ(to_string(*parse_display("fifo:60")), "fifo:60");
  // A monitor's refresh for tearing presents: a grid to plan on, presents shown when made.
  const auto imm = parse_display("immediate:60");
  ASSERT_TRUE(imm);
  EXPECT_EQ(imm->fixed_period(), 16'666'667_ns);
  EXPECT_FALSE(imm->latches());
  EXPECT_TRUE(parse_display("mailbox:60")->latches());
}

TEST(DisplaySpec, PeriodOfHzRefusesWhatIsNoRefreshRate) {
  EXPECT_EQ(period_of_hz(60), Nanos{16'666'667});
  EXPECT_EQ(period_of_hz(0.001), Nanos{1'000'000'000'000});
  // A monitor reporting 0 Hz: llround(inf) gave INT64_MIN; -60 Hz a negative period.
  for (const double hz : {0.0, -60.0, 1e-12, std::numeric_limits<double>::infinity(), std::nan("")})
    EXPECT_THROW((void)period_of_hz(hz), std::invalid_argument) << hz;
  try {
    (void)period_of_hz(0);
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "period_of_hz: 0 Hz is not a refresh rate (a monitor that reports none: leave the period 0)");
  }
}

TEST(DisplaySpec, ParsesHonestClocks) {
  const auto d = parse_display("fifo:60@59.94,drift=100ppm,jitter=50us");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->period, 16'666'667_ns);
  EXPECT_EQ(d->actual_period, 16'683'350_ns);
  EXPECT_EQ(d->true_period(), 16'683'350_ns);
  EXPECT_EQ(d->drift_ppm, 100);
  EXPECT_EQ(d->jitter, 50_us);
  EXPECT_EQ(to_string(*d), "fifo:60@59.94,drift=100ppm,jitter=50000ns");
  EXPECT_EQ(parse_display(to_string(*d))->jitter, 50_us);
  EXPECT_FALSE(parse_display("fifo:60,jitter=50"));     // a duration needs its unit
  EXPECT_FALSE(parse_display("fifo:60,drift=1e3ppm"));
  EXPECT_EQ(parse_display("fifo:60,drift=+100ppm")->drift_ppm, 100);  // a sign, as the rates take
  EXPECT_FALSE(parse_display("fifo:60,drift=+-100ppm"));
  EXPECT_FALSE(parse_display("fifo:60,colour=blue"));
  EXPECT_FALSE(parse_display("vrr:48-144@60"));
  EXPECT_FALSE(parse_display("fifo:60@"));
}

TEST(Display, AnActualRefreshDriftAndJitterMoveTheVblanksButNotTheLatch) {
  DisplaySpec spec = *parse_display("fifo:60@59.94,drift=100ppm,jitter=50us");
  DisplayModel d{spec};
  Nanos previous = d.vblank(0);
  for (std::int64_t k = 1; k < 3000; ++k) {
    const Nanos v = d.vblank(k);
    // The true period, give or take the drift's 100 ppm.
    EXPECT_NEAR(static_cast<double>((v - previous).count()), 16'683'350.0, 16'683'350.0 * 100e-6 + 2) << k;
    EXPECT_EQ(d.vblank_at_or_after(v), v);
    EXPECT_EQ(d.vblank_at_or_after(v - 1_ns), v);
    EXPECT_EQ(d.vblank_at_or_after(v + 1_ns), d.vblank(k + 1));
    previous = v;
  }
  // Reported times scatter within the jitter around the true vblank, the same each time.
  const Nanos v = d.vblank(100);
  const Presented p = d.present(0, v - 1_ms);
  ASSERT_TRUE(p.display);
  EXPECT_LE(*p.display - v, 50_us);
  EXPECT_GE(*p.display - v, -50_us);
  EXPECT_EQ(d.reported(v), *p.display);
}

TEST(Display, FifoLatchesToTheFirstVblankAtOrAfterThePresent) {
  DisplayModel d{fifo_100hz()};
  EXPECT_EQ(d.present(0, 3_ms).display, 10_ms);
  EXPECT_EQ(d.present(1, 20_ms).display, 20_ms);   // exactly on a vblank: latched there
  EXPECT_EQ(d.present(2, 20_ms + 1_ns).display, 30_ms);
  EXPECT_EQ(d.vblank_at_or_after(-5_ms), 0_ms);
}

TEST(Display, FifoShowsOneFramePerVblank) {
  DisplayModel d{fifo_100hz()};
  EXPECT_EQ(d.present(0, 1_ms).display, 10_ms);
  EXPECT_EQ(d.present(1, 2_ms).display, 20_ms);  // queued behind frame 0
  EXPECT_EQ(d.present(2, 3_ms).display, 30_ms);
}

TEST(Display, FifoAcquireBlocksWhileEveryImageIsQueuedOrShown) {
  DisplayModel d{fifo_100hz()};  // 3 images
  EXPECT_EQ(d.acquire(0_ms), 0_ms);
  d.present(0, 1_ms);   // shown at 10
  EXPECT_EQ(d.acquire(1_ms), 1_ms);
  d.present(1, 2_ms);   // shown at 20
  EXPECT_EQ(d.acquire(2_ms), 2_ms);
  d.present(2, 3_ms);   // shown at 30: three images queued
  // The oldest image comes back when frame 1 replaces frame 0 on screen, at 20.
  EXPECT_EQ(d.acquire(4_ms), 20_ms);
  d.present(3, 21_ms);  // shown at 40
  // Frame 1 is on screen (20), 2 and 3 queued: wait for 30.
  EXPECT_EQ(d.acquire(22_ms), 30_ms);
}

TEST(Display, TwoImagesBlockOneFrameEarlier) {
  DisplaySpec s = fifo_100hz();
  s.images = 2;
  DisplayModel d{s};
  d.present(0, 1_ms);  // shown at 10
  d.present(1, 2_ms);  // shown at 20
  EXPECT_EQ(d.acquire(3_ms), 20_ms);
}

TEST(Display, MailboxNewestReplacesTheQueuedFrame) {
  DisplaySpec s = fifo_100hz();
  s.mode = PresentMode::mailbox;
  DisplayModel d{s};
  EXPECT_EQ(d.acquire(0_ms), 0_ms);
  const Presented a = d.present(0, 1_ms);
  EXPECT_EQ(a.display, 10_ms);
  EXPECT_FALSE(a.replaced);
  const Presented b = d.present(1, 5_ms);  // before the vblank at 10: frame 0 is never shown
  EXPECT_EQ(b.display, 10_ms);
  ASSERT_TRUE(b.replaced);
  EXPECT_EQ(*b.replaced, 0);
  EXPECT_EQ(d.acquire(6_ms), 6_ms);  // never blocks
  const Presented c = d.present(2, 12_ms);
  EXPECT_EQ(c.display, 20_ms);
  EXPECT_FALSE(c.replaced);
}

TEST(Display, ImmediateShowsAtThePresentAndNeverBlocks) {
  DisplayModel d{*parse_display("immediate")};
  for (int i = 0; i < 10; ++i) {
    const Nanos t = Nanos{i * 1'234'567};
    EXPECT_EQ(d.acquire(t), t);
    EXPECT_EQ(d.present(i, t).display, t);
  }
}

TEST(Display, VrrShowsAtThePresentNoSoonerThanTheFastestRefresh) {
  DisplaySpec s;
  s.mode = PresentMode::vrr;
  s.period = 5_ms;        // 200 Hz at most
  s.max_period = 20_ms;   // 50 Hz at least
  DisplayModel d{s};
  EXPECT_EQ(d.present(0, 7_ms).display, 7_ms);
  EXPECT_EQ(d.present(1, 9_ms).display, 12_ms);   // 7 + 5
  EXPECT_EQ(d.present(2, 30_ms).display, 30_ms);
}

TEST(Display, NoneKnowsNoDisplayTime) {
  DisplayModel d{DisplaySpec{}};
  EXPECT_FALSE(d.present(0, 3_ms).display);
}

TEST(SleepModel, ExactWakesAtTheDeadline) {
  SleepModel w{WaiterKind::exact, 1};
  EXPECT_EQ(w.wake(0_ms, 5_ms), 5_ms);
  EXPECT_EQ(w.wake(6_ms, 5_ms), 6_ms);  // a passed deadline returns at once
}

TEST(SleepModel, PlainSleepOvershootsThePreciseWaiterBarely) {
  SleepModel sleep{WaiterKind::sleep, 7};
  SleepModel precise{WaiterKind::precise, 7};
  Nanos sleep_worst{0}, precise_late{0};
  int precise_over_5us = 0;
  for (int i = 0; i < 1000; ++i) {
    const Nanos s = sleep.wake(0_ms, 4_ms) - 4_ms;
    const Nanos p = precise.wake(0_ms, 4_ms) - 4_ms;
    EXPECT_GE(s, 65_us);
    EXPECT_GE(p, 0_ns);
    sleep_worst = std::max(sleep_worst, s);
    precise_late = std::max(precise_late, p);
    precise_over_5us += p > 5_us ? 1 : 0;
  }
  EXPECT_GT(sleep_worst, 170_us);
  // Only the rare multi-millisecond sleep overshoot gets past the spin margin.
  EXPECT_LE(precise_over_5us, 20);
}

TEST(SleepModel, TheSameSeedGivesTheSameWakes) {
  SleepModel a{WaiterKind::sleep, 42}, b{WaiterKind::sleep, 42}, c{WaiterKind::sleep, 43};
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const Nanos x = a.wake(0_ms, 1_ms), y = b.wake(0_ms, 1_ms), z = c.wake(0_ms, 1_ms);
    EXPECT_EQ(x, y);
    differs = differs || x != z;
  }
  EXPECT_TRUE(differs);
}

TEST(Simulator, FifoDisplayTimesAndBlockingAreInTheRecords) {
  // The seed loop at 12 ms frames on a 10 ms FIFO display: every frame shown on a vblank.
  AdaptiveConfig cfg;
  cfg.initial_interval = 12_ms;
  cfg.shrink = false;
  FixedStepConfig sim;
  sim.step = 4_ms;
  cfg.display_aware = false;  // the seed loop: blind to the display
  AdaptivePolicy p{cfg, sim};
  SimOptions opt;
  opt.display = fifo_100hz();
  const SimRun run = simulate(p, SimCosts::fixed(3_ms, 1_ms), 6, opt);
  ASSERT_EQ(run.records.size(), 6u);
  // Starts 0, 12, 24, 36, ...; presents at start + 3; shown at the next vblank.
  const Nanos expected[] = {10_ms, 20_ms, 30_ms, 40_ms, 60_ms, 70_ms};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(run.records[i].present, Nanos{static_cast<std::int64_t>(i) * 12_ms} + 3_ms) << i;
    ASSERT_TRUE(run.records[i].display) << i;
    EXPECT_EQ(*run.records[i].display, expected[i]) << i;
  }
  EXPECT_EQ(run.acquire_blocked, 0_ns);
}

TEST(Simulator, BlockedAcquireIsTimeInsideTheRender) {
  // An uncapped loop far faster than the display fills the 3 images, then runs at the refresh rate.
  FixedStepConfig sim;
  sim.step = 1_ms;
  AccumulatorPolicy p{AccumulatorConfig{}, sim};
  SimOptions opt;
  opt.display = fifo_100hz();
  const SimRun run = simulate(p, SimCosts::fixed(1_ms, 100_us), 40, opt);
  EXPECT_GT(run.acquire_blocked, 0_ns);
  // Frames 0-2 take the three images (shown at 10, 20, 30). Frame 3 starts at 3.3 ms and
  // waits until frame 1 replaces frame 0 on screen at 20, then renders for 1 ms.
  EXPECT_EQ(run.records[3].cpu_start, 3300_us);
  EXPECT_EQ(run.records[3].present, 21_ms);
  EXPECT_EQ(*run.records[3].display, 40_ms);
  // In the steady state one frame per vblank, the render absorbing the block.
  for (std::size_t i = 4; i < run.records.size(); ++i) {
    EXPECT_EQ(*run.records[i].display - *run.records[i - 1].display, 10_ms) << i;
    EXPECT_GT(run.records[i].render, 5_ms) << i;
  }
}

TEST(Simulator, ImmediateShowsEachFrameWhenPresented) {
  AdaptiveConfig cfg;
  cfg.initial_interval = 16_ms;
  cfg.shrink = false;
  AdaptivePolicy p{cfg, {}};
  SimOptions opt;
  opt.display = *parse_display("immediate");
  const SimRun run = simulate(p, SimCosts::fixed(3_ms, 1_ms), 10, opt);
  for (const auto& r : run.records) {
    ASSERT_TRUE(r.display);
    EXPECT_EQ(*r.display, r.present);
  }
}
