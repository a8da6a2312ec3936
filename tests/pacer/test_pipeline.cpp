// Display-aware adaptive, issue 5's second round: late frames keep their lag (one error,
// not a freeze then a jump), frames start two intervals ahead on a FIFO queue, queued
// presents go at once, a mean overload widens, and the mixed cadence keeps the rate when
// whole periods would halve it. Virtual time only; exact nanoseconds.
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "pacer/adaptive.hpp"
#include "pacer/policies.hpp"
#include "pacer/simulator.hpp"
#include "pacer/stats.hpp"
#include "configs.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

constexpr Nanos period = 10_ms;  // a 100 Hz display: round numbers

SimOptions display(PresentMode mode) {
  SimOptions opt;
  opt.display.mode = mode;
  opt.display.period = mode == PresentMode::immediate ? 0_ms : period;
  return opt;
}

AdaptiveConfig config_for(const SimOptions& opt, Nanos initial = 10_ms) {
  PolicyConfig cfg;
  cfg.adaptive.initial_interval = initial;
  fit_to_display(cfg, opt.display);
  return cfg.adaptive;
}

SimRun run(AdaptivePolicy& p, const SimOptions& opt, std::vector<Nanos> render, Nanos update = 500_us) {
  const auto frames = static_cast<std::int64_t>(render.size());
  SimCosts costs{[render](std::int64_t f) { return render[static_cast<std::size_t>(f)]; },
                 [update](std::int64_t, std::int64_t) { return update; }};
  return simulate(p, costs, frames, opt);
}

/// 200 frames of 3 ms with one of 45 ms at frame 100: shown late whatever the plan.
std::vector<Nanos> one_long_frame() {
  std::vector<Nanos> render(200, 3_ms);
  render[100] = 45_ms;
  return render;
}

/// Animation error of frame i (docs/log-format.md, Metrics), in ns.
Nanos anim_error(const SimRun& r, std::size_t i) { return animation_error(r.records[i - 1], r.records[i]); }

}  // namespace

TEST(LateFrames, TheWorldContinuesFromALateFrameInsteadOfJumping) {
  // A 45 ms render at 100 Hz is shown late whatever the plan. Its own animation error is
  // unavoidable; the frame after it continues from it (the lag is dropped as debt), so
  // it has none, where re-syncing to the clock would show a 40 ms jump.
  const SimOptions opt = display(PresentMode::fifo);
  AdaptiveConfig cfg = config_for(opt);
  cfg.catch_up = 0;  // pause through the hitch (the default catches the lag up, below)
  AdaptivePolicy p{cfg, step_5()};
  const SimRun r = run(p, opt, one_long_frame());
  EXPECT_LT(anim_error(r, 100), 0_ms);  // shown later than the world it shows
  Nanos dropped{0};
  for (const FrameRecord& f : r.records) dropped += f.dropped;
  EXPECT_EQ(dropped, -anim_error(r, 100)) << "the lateness is the dropped debt";
  for (std::size_t i = 101; i < r.records.size(); ++i) EXPECT_EQ(anim_error(r, i), 0_ms) << i;
  EXPECT_EQ(p.lag(), 0_ms);
}

TEST(LateFrames, WithKeptDebtTheLagIsCaughtUpInBoundedSteps) {
  // Lockstep/networked games keep every nanosecond: the lag is caught up by at most
  // catch_up x interval per frame, so no frame after the late one jumps further.
  const SimOptions opt = display(PresentMode::fifo);
  AdaptiveConfig cfg = config_for(opt);
  cfg.catch_up = 0.25;
  AdaptivePolicy p{cfg, step_5(DebtPolicy::keep)};
  const SimRun r = run(p, opt, one_long_frame());
  const Nanos lateness = -anim_error(r, 100);
  ASSERT_GT(lateness, 0_ms);
  Nanos caught{0};
  for (std::size_t i = 101; i < r.records.size(); ++i) {
    const Nanos e = anim_error(r, i);
    EXPECT_GE(e, 0_ms) << i;
    EXPECT_LE(e, scale(p.interval(), 0.25)) << i;
    caught += e;
  }
  EXPECT_EQ(caught, lateness) << "all of it caught up, none dropped";
  for (const FrameRecord& f : r.records) EXPECT_EQ(f.dropped, 0_ms);
  EXPECT_EQ(p.lag(), 0_ms);
}

TEST(Pipeline, AFrameLongerThanAnIntervalStillMakesItsVblank) {
  // Frames start two intervals before their display on a 3-image FIFO: a 16 ms render
  // (more than the 10 ms interval, less than two minus the updates) uses the queue's
  // slack. Starting one interval ahead, the same frame is shown late.
  const SimOptions opt = display(PresentMode::fifo);
  std::vector<Nanos> render(200, 3_ms);
  render[100] = 16_ms;
  AdaptivePolicy deep{config_for(opt), step_5()};
  const SimRun d = run(deep, opt, render);
  for (std::size_t i = 40; i < d.records.size(); ++i) {
    EXPECT_EQ(*d.records[i].display - *d.records[i - 1].display, period) << i;
    EXPECT_EQ(anim_error(d, i), 0_ms) << i;
  }
  AdaptiveConfig shallow_cfg = config_for(opt);
  shallow_cfg.pipeline_frames = 1;
  AdaptivePolicy shallow{shallow_cfg, step_5()};
  const SimRun s = run(shallow, opt, render);
  EXPECT_GT(*s.records[100].display - *s.records[99].display, period);
}

TEST(Pipeline, QueuedPresentsGoAtOnceAndMailboxPresentsAreHeld) {
  // FIFO: a frame due one period after the previous one cannot be shown early, so its
  // present is not held (the CPU goes on). Mailbox would replace the queued frame: held.
  const SimOptions fifo = display(PresentMode::fifo);
  AdaptivePolicy f{config_for(fifo), step_5()};
  const SimRun rf = run(f, fifo, std::vector<Nanos>(120, 3_ms));
  const SimOptions mailbox = display(PresentMode::mailbox);
  AdaptivePolicy m{config_for(mailbox), step_5()};
  const SimRun rm = run(m, mailbox, std::vector<Nanos>(120, 3_ms));
  for (std::size_t i = 40; i < 120; ++i) {
    EXPECT_EQ(rf.records[i].present, rf.records[i].cpu_start + 3_ms) << i;
    EXPECT_EQ(*rf.records[i].display, rf.records[i].animation_time) << i;
    EXPECT_GT(rm.records[i].present, *rm.records[i].display - period) << i;  // after the vblank before
    EXPECT_EQ(*rm.records[i].display, rm.records[i].animation_time) << i;
  }
  EXPECT_EQ(rm.replaced, 0);
}

TEST(MixedCadence, KeepsTheRateWhenWholePeriodsWouldHalveIt) {
  // 60 Hz, a 16 ms render plus updates: every frame needs a little more than a period.
  // Whole periods would run at 30 fps; the mixed cadence shows each frame at the first
  // vblank it makes (one or two periods apart), with the world of that vblank.
  SimOptions opt;
  opt.display.mode = PresentMode::fifo;
  opt.display.period = period_of_hz(60);
  AdaptivePolicy p{config_for(opt, opt.display.period), step_5()};
  const SimRun r = run(p, opt, std::vector<Nanos>(600, 16_ms));
  EXPECT_TRUE(p.mixed_cadence());
  const Summary s = summarize(r.records, {.warmup_frames = 120});
  EXPECT_GT(s.average_fps, 45.0);
  for (std::size_t i = 121; i < r.records.size(); ++i) {
    const FrameRecord& f = r.records[i];
    EXPECT_EQ((*f.display - *r.records[i - 1].display) % opt.display.period, 0_ms) << i;  // on the grid
    EXPECT_EQ(f.animation_time, *f.display - (r.records[120].display.value() - r.records[120].animation_time)) << i;
  }

  // mixed_cadence_loss = 1: whole periods always (Swappy's choice), a steady 30 fps.
  AdaptiveConfig even_cfg = config_for(opt, opt.display.period);
  even_cfg.mixed_cadence_loss = 1;
  AdaptivePolicy even{even_cfg, step_5()};
  const SimRun e = run(even, opt, std::vector<Nanos>(600, 16_ms));
  EXPECT_FALSE(even.mixed_cadence());
  for (std::size_t i = 121; i < e.records.size(); ++i)
    EXPECT_EQ(*e.records[i].display - *e.records[i - 1].display, 2 * opt.display.period) << i;
}

TEST(MixedCadence, NotAboveFiftyFramesPerSecond) {
  // At 100 Hz a 13 ms frame would alternate 10 and 20 ms; whole periods give a steady
  // 50 fps, which is not below mixed_cadence_over when it is set to 20 ms (the default 0
  // allows the mixed cadence at every rate): the policy widens to 20 ms instead.
  const SimOptions opt = display(PresentMode::fifo);
  AdaptiveConfig cfg = config_for(opt);
  cfg.mixed_cadence_over = 20_ms;
  AdaptivePolicy p{cfg, step_5()};
  const SimRun r = run(p, opt, std::vector<Nanos>(300, 12_ms));
  EXPECT_FALSE(p.mixed_cadence());
  EXPECT_EQ(p.interval(), 20_ms);
}

TEST(LateFrames, APresentThatWakesLateCostsOneError) {
  // Immediate presentation, driven by hand: frame 100's held present wakes 2 ms late (a
  // sleep overshoot). The display reports it; the next frame continues from what was
  // shown, so only frame 100 carries an error.
  AdaptiveConfig cfg;
  cfg.initial_interval = 10_ms;
  cfg.catch_up = 0;  // the 2 ms are dropped as debt (caught up by default: see below)
  AdaptivePolicy p{cfg, step_5()};
  std::vector<FrameRecord> records;
  Nanos now{0};
  for (std::int64_t f = 0; f < 200; ++f) {
    const FramePlan plan = p.begin_frame(now);
    if (auto r = p.take_record()) records.push_back(*r);
    now += 3_ms;
    p.end_render(now);
    if (plan.present_at > now) now = plan.present_at + (f == 100 ? 2_ms : 0_ms);
    p.set_presentation(now, now, TimingSource::virtual_time);
    p.observe_display(f, now);
    for (Action a = p.next(now); a.kind != ActionKind::render; a = p.next(now)) {
      if (a.kind == ActionKind::update) {
        now += 500_us;
        p.end_update(now);
      } else {
        now = std::max(now, a.until);
      }
    }
  }
  ASSERT_TRUE(p.display_mode());
  SimRun run;
  run.records = records;
  EXPECT_EQ(anim_error(run, 100), -2_ms);
  for (std::size_t i = 101; i < records.size(); ++i) EXPECT_EQ(anim_error(run, i), 0_ms) << i;
  for (std::size_t i = 20; i < 100; ++i) EXPECT_EQ(anim_error(run, i), 0_ms) << i;
}

namespace {

/// The default config on FIFO at 100 Hz going shallow after 100 calm frames, at
/// `shallow` intervals ahead, run on `render`.
SimRun run_shallow(double shallow, const std::vector<Nanos>& render) {
  const SimOptions opt = display(PresentMode::fifo);
  AdaptiveConfig cfg = config_for(opt);
  cfg.shallow_after = 100;
  cfg.shallow_pipeline = shallow;
  AdaptivePolicy p{cfg, step_5()};
  return run(p, opt, render);
}

}  // namespace

TEST(Pipeline, StartsShallowOnceNoFrameNeedsTheDepth) {
  // shallow_after frames in a row that render within one interval: the pipeline drops to
  // shallow_pipeline intervals (1.5: half a period less latency; 1: a whole period less). A
  // frame that misses brings the depth back.
  ASSERT_EQ(AdaptiveConfig{}.shallow_pipeline, 1.5);
  for (const double shallow : {1.5, 1.0}) {
    std::vector<Nanos> render(450, 3_ms);
    render[300] = 16_ms;
    const SimRun r = run_shallow(shallow, render);
    auto ahead = [&](std::size_t i) { return *r.records[i].display - r.records[i].planned_start; };
    EXPECT_EQ(ahead(50), 2 * period);
    EXPECT_EQ(ahead(200), scale(period, shallow));
    EXPECT_LT(anim_error(r, 300), 0_ms) << "shallow, the long frame misses";
    EXPECT_EQ(ahead(305), 2 * period);
    EXPECT_EQ(ahead(449), scale(period, shallow));
  }
}

TEST(Pipeline, ShallowARareLongRenderIsOneVblankLateNotTwo) {
  // After a long calm the pipeline is shallow. A render of 2.3 periods is then shown one
  // vblank late at 1.5 intervals ahead (a gap of two periods) and two late at one interval
  // ahead (a gap of three: over 2.5 x the mean, a stutter by CapFrameX's rule).
  const auto gap_at = [](double shallow) {
    std::vector<Nanos> render(400, 3_ms);
    render[300] = 23_ms;
    const SimRun r = run_shallow(shallow, render);
    return *r.records[300].display - *r.records[299].display;
  };
  EXPECT_EQ(gap_at(1.5), 2 * period);
  EXPECT_EQ(gap_at(1.0), 3 * period);
}
