// The peers (docs/pacing.md, "Peers"): Android Frame Pacing's rules (`swappy`) and
// bevy_framepace's limiter (`framepace`), each checked against its published behaviour on
// the simulator, in virtual time.
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pacer/framepace.hpp"
#include "pacer/policies.hpp"
#include "pacer/simulator.hpp"
#include "pacer/swappy.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

constexpr Nanos p60{16'666'667};

PolicyConfig fitted(const char* display) {
  PolicyConfig cfg;
  fit_to_display(cfg, *parse_display(display));
  return cfg;
}

SimOptions on(const char* display, WaiterKind waiter = WaiterKind::exact) {
  SimOptions opt;
  opt.display = *parse_display(display);
  opt.waiter = waiter;
  return opt;
}

/// Renders cost `render(frame)`, updates cost nothing: the frame's work is its render.
SimCosts renders(std::function<Nanos(std::int64_t)> render) {
  return SimCosts{std::move(render), [](std::int64_t, std::int64_t) { return Nanos::zero(); }};
}

/// |a - b| <= 1 ns (the display grid rounds to whole nanoseconds).
bool near(Nanos a, Nanos b) { return a - b <= 1_ns && b - a <= 1_ns; }

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// ---------------------------------------------------------------------------- swappy

TEST(Swappy, TenMillisecondFramesAt60HzKeepSwapIntervalOne) {
  const PolicyConfig cfg = fitted("fifo:60");
  SwappyPolicy p{cfg.swappy, cfg.sim};
  const SimRun run = simulate(p, renders([](std::int64_t) { return 10_ms; }), 600, on("fifo:60"));
  EXPECT_EQ(p.swap_interval(), 1);
  EXPECT_EQ(p.interval_changes(), 0);
  // 11 ms (frame + FRAME_MARGIN) x 1.5 fits a period: pipelining goes off after 2 s.
  EXPECT_FALSE(p.pipelined());
  EXPECT_EQ(p.pipeline_changes(), 1);
  for (std::size_t i = 10; i < run.records.size(); ++i)
    EXPECT_TRUE(near(*run.records[i].display - *run.records[i - 1].display, p60)) << i;
}

TEST(Swappy, TwelveMillisecondFramesKeepPipelining) {
  // 13 ms x 1.5 = 19.5 ms does not fit 16.7 ms: pipelining stays on.
  const PolicyConfig cfg = fitted("fifo:60");
  SwappyPolicy p{cfg.swappy, cfg.sim};
  (void)simulate(p, renders([](std::int64_t) { return 12_ms; }), 600, on("fifo:60"));
  EXPECT_EQ(p.swap_interval(), 1);
  EXPECT_TRUE(p.pipelined());
  EXPECT_EQ(p.pipeline_changes(), 0);
}

TEST(Swappy, TwentyMillisecondFramesAt60HzGoToSwapIntervalTwo) {
  // At interval 1 a 20 ms frame misses its target vsync about one time in five (> 10%):
  // swapSlower picks calculateSwapInterval(21 ms) = 2, and the frames then show evenly.
  const PolicyConfig cfg = fitted("fifo:60");
  SwappyPolicy p{cfg.swappy, cfg.sim};
  const SimRun run = simulate(p, renders([](std::int64_t) { return 20_ms; }), 600, on("fifo:60"));
  EXPECT_EQ(p.swap_interval(), 2);
  EXPECT_EQ(p.interval_changes(), 1);
  EXPECT_TRUE(near(p.interval(), 2 * p60));
  for (std::size_t i = 300; i < run.records.size(); ++i)
    EXPECT_TRUE(near(*run.records[i].display - *run.records[i - 1].display, 2 * p60)) << i;
}

TEST(Swappy, FramesNearTheThresholdDoNotFlipFlop) {
  // Up a period takes > 10% missed frames; down one takes none missed and an average
  // (+1 ms) under a period less 1 ms: frames of 16 ms change nothing at either interval.
  const PolicyConfig cfg = fitted("fifo:60");
  {
    SwappyPolicy p{cfg.swappy, cfg.sim};
    (void)simulate(p, renders([](std::int64_t) { return 16_ms; }), 900, on("fifo:60"));
    EXPECT_EQ(p.swap_interval(), 1);
    EXPECT_EQ(p.interval_changes(), 0);
  }
  // 20 ms frames (-> 2), then 16 ms frames (stays 2), then 10 ms frames (back to 1).
  SwappyPolicy p{cfg.swappy, cfg.sim};
  std::vector<int> interval;
  const auto cost = [&](std::int64_t f) {
    interval.push_back(p.swap_interval());
    return f < 250 ? 20_ms : f < 550 ? 16_ms : 10_ms;
  };
  (void)simulate(p, renders(cost), 850, on("fifo:60"));
  ASSERT_EQ(interval.size(), 850u);
  EXPECT_EQ(interval[249], 2) << "20 ms frames at 60 Hz: swap interval 2";
  for (std::size_t f = 250; f < 550; ++f) ASSERT_EQ(interval[f], 2) << "16 ms frames keep interval 2, frame " << f;
  EXPECT_EQ(interval.back(), 1) << "the load dropped to 10 ms: back to 1";
  EXPECT_EQ(p.interval_changes(), 2);
}

TEST(Swappy, PresentsAreHeldToTheTargetVsync) {
  // On a display that shows presents when made, a held present is shown on the vsync grid.
  const PolicyConfig cfg = fitted("immediate:60");
  SwappyPolicy p{cfg.swappy, cfg.sim};
  const SimRun run = simulate(p, renders([](std::int64_t f) { return Nanos{3'000'000 + (f % 5) * 1'000'000}; }), 300,
                              on("immediate:60"));
  for (std::size_t i = 1; i < run.records.size(); ++i) {
    const FrameRecord& r = run.records[i];
    ASSERT_TRUE(r.present_planned) << i;
    EXPECT_EQ(r.present_issued, *r.present_planned) << i;
    EXPECT_EQ(Nanos{r.display->count() % p60.count()}.count() <= 1 ||
                  p60.count() - r.display->count() % p60.count() <= 1,
              true)
        << "frame " << i << " shown at " << r.display->count();
    EXPECT_TRUE(near(*r.display - *run.records[i - 1].display, p60)) << i;
  }
}

TEST(Swappy, OnFifoTheHeldPresentLatchesToTheNextVblank) {
  const PolicyConfig cfg = fitted("fifo:60");
  SwappyPolicy p{cfg.swappy, cfg.sim};
  const SimRun run = simulate(p, renders([](std::int64_t) { return 12_ms; }), 120, on("fifo:60"));
  for (std::size_t i = 2; i < run.records.size(); ++i) {
    const FrameRecord& r = run.records[i];
    ASSERT_TRUE(r.present_planned);
    // Pipelined: the present waits for the target vsync (+ the margin) and shows at the next.
    EXPECT_TRUE(near(*r.display - (*r.present_planned - cfg.swappy.vblank_margin), p60)) << i;
  }
}

TEST(Swappy, PastTheThresholdNothingWaits) {
  // 70 ms frames at 60 Hz: swapSlower jumps to calculateSwapInterval(71 ms) = 5; 5 periods
  // (83 ms) are over max_auto_swap_duration (50 ms): no waits, no presentation time.
  const PolicyConfig cfg = fitted("fifo:60");
  SwappyPolicy p{cfg.swappy, cfg.sim};
  const SimRun run = simulate(p, renders([](std::int64_t) { return 70_ms; }), 120, on("fifo:60"));
  EXPECT_EQ(p.swap_interval(), 5);
  EXPECT_FALSE(run.records.back().present_planned.has_value());
  EXPECT_EQ(run.records.back().pacer_wait, Nanos::zero());
}

TEST(Swappy, TheGamesSwapDurationIsTheFloor) {
  // SwappyGL_setSwapIntervalNS(SWAPPY_SWAP_30FPS): never faster than 30 fps, even with 5 ms frames.
  PolicyConfig cfg = fitted("fifo:60");
  cfg.swappy.swap_duration = Nanos{33'333'333};
  SwappyPolicy p{cfg.swappy, cfg.sim};
  (void)simulate(p, renders([](std::int64_t) { return 5_ms; }), 300, on("fifo:60"));
  EXPECT_EQ(p.swap_interval(), 2);
}

TEST(Swappy, FitsTheDisplayAndValidatesItsConfig) {
  EXPECT_EQ(fitted("fifo:144").swappy.refresh_period, period_of_hz(144));
  EXPECT_TRUE(fitted("fifo:144").swappy.vblank_latch);
  EXPECT_EQ(fitted("vrr:48-144").swappy.refresh_period, period_of_hz(144));
  EXPECT_FALSE(fitted("vrr:48-144").swappy.vblank_latch);
  EXPECT_EQ(fitted("immediate").swappy.refresh_period, p60);
  EXPECT_EQ(fitted("immediate").swappy.swap_duration, p60);
  EXPECT_EQ(fitted("none").swappy.refresh_period, p60);
  EXPECT_EQ(fitted("mailbox:120").swappy.swap_duration, period_of_hz(120));

  PolicyConfig cfg;
  cfg.swappy.refresh_period = Nanos::zero();
  EXPECT_EQ(refusal([&] { (void)make_pacer("swappy", cfg); }),
            "SwappyConfig::refresh_period must be > 0 and at most an hour, got 0 ns");
  cfg = {};
  cfg.swappy.vblank_margin = 5_ms;
  EXPECT_NE(refusal([&] { (void)make_pacer("swappy", cfg); }).find("SwappyConfig::vblank_margin"), std::string::npos);
  cfg = {};
  cfg.swappy.max_auto_swap_duration = Nanos{-1};
  EXPECT_NE(refusal([&] { (void)make_pacer("swappy", cfg); }).find("got -1 ns"), std::string::npos);
}

// ---------------------------------------------------------------------------- framepace

TEST(Framepace, FramesStartOneLimitApartAndSleepWhatIsLeft) {
  const PolicyConfig cfg = fitted("immediate");
  const Nanos limit = cfg.framepace.frametime_limit;
  EXPECT_EQ(limit, Nanos{16'806'723}) << "Limiter::Auto at 60 Hz: 1 / 59.5 s";
  FramepacePolicy p{cfg.framepace, cfg.sim};
  const SimRun run = simulate(p, renders([](std::int64_t) { return 5_ms; }), 300, on("immediate"));
  for (std::size_t i = 1; i < run.records.size(); ++i) {
    EXPECT_EQ(run.records[i].cpu_start - run.records[i - 1].cpu_start, limit) << i;
    if (i + 1 < run.records.size()) {
      EXPECT_EQ(run.records[i].pacer_wait, limit - 5_ms) << i;
    }
  }
}

TEST(Framepace, HoldsTheTargetRateWithALateWaker) {
  // A plain OS sleep wakes late (about 90 us on average); the next sleep is shortened by
  // the oversleep. As published (oversleep = frame_time_total - limit, where the total
  // already had the previous oversleep taken off) oversleep_k = overshoot_k -
  // oversleep_k-1: a steady overshoot is only half made up, so frames start about half
  // the mean overshoot later than the limit.
  const PolicyConfig cfg = fitted("vrr:48-144");
  const Nanos limit = cfg.framepace.frametime_limit;
  EXPECT_EQ(limit, Nanos{std::llround(1e9 / 143.5)});
  FramepacePolicy p{cfg.framepace, cfg.sim};
  const SimRun run = simulate(p, renders([](std::int64_t) { return 3_ms; }), 2000, on("vrr:48-144", WaiterKind::sleep));
  const Nanos mean = (run.records.back().cpu_start - run.records[1].cpu_start) / (run.records.size() - 2);
  EXPECT_GT(mean, limit) << "mean start-to-start " << mean.count();
  EXPECT_LT(mean - limit, 60_us) << "mean start-to-start " << mean.count();
}

TEST(Framepace, ALongFrameShortensTheNextSleep) {
  // framerate_limiter: oversleep = frame_time_total - limit, also after a frame that ran
  // long; the next sleep is cut by it.
  const PolicyConfig cfg = fitted("immediate");
  const Nanos limit = cfg.framepace.frametime_limit;
  FramepacePolicy p{cfg.framepace, cfg.sim};
  const SimRun run = simulate(p, renders([](std::int64_t f) { return f == 10 ? 25_ms : 5_ms; }), 20, on("immediate"));
  EXPECT_EQ(run.records[10].pacer_wait, Nanos::zero());
  EXPECT_EQ(run.records[11].pacer_wait, limit - 5_ms - (25_ms - limit));
  EXPECT_EQ(run.records[12].pacer_wait, limit - 5_ms);
}

TEST(Framepace, ForwardEstimateFollowsALoadStep) {
  PolicyConfig cfg = fitted("immediate");
  cfg.framepace.forward_estimate = true;
  const Nanos limit = cfg.framepace.frametime_limit;
  FramepacePolicy p{cfg.framepace, cfg.sim};
  std::vector<Nanos> estimate;
  const auto cost = [&](std::int64_t f) {
    estimate.push_back(p.estimate());
    return f < 200 ? 5_ms : 10_ms;
  };
  const SimRun run = simulate(p, renders(cost), 400, on("immediate"));
  // Mean + 3 sigma of 64 equal frames + the 200 us safety margin.
  EXPECT_EQ(estimate[200], 5_ms + 200_us);
  EXPECT_EQ(estimate[399], 10_ms + 200_us);
  // Within 8 frames of the step the estimate covers the new work (sigma widens it).
  EXPECT_GT(estimate[208], 10_ms);
  // In steady state the exact limiter starts renders the target less the margin apart.
  for (std::size_t i = 100; i < 200; ++i)
    EXPECT_EQ(run.records[i].cpu_start - run.records[i - 1].cpu_start, limit - 200_us) << i;
}

TEST(Framepace, FitsTheDisplayAndValidatesItsConfig) {
  EXPECT_EQ(framepace_auto_limit(p60), Nanos{16'806'723});
  EXPECT_EQ(fitted("fifo:144").framepace.frametime_limit, Nanos{std::llround(1e9 / 143.5)});
  EXPECT_EQ(fitted("none").framepace.frametime_limit, Nanos{16'806'723});
  EXPECT_EQ(fitted("immediate:60").framepace.frametime_limit, Nanos{16'806'723});

  PolicyConfig cfg;
  cfg.framepace.frametime_limit = Nanos{-1};
  EXPECT_EQ(refusal([&] { (void)make_pacer("framepace", cfg); }),
            "FramepaceConfig::frametime_limit must be >= 0 and at most an hour, got -1 ns");
  cfg = {};
  cfg.framepace.frametime_limit = Nanos::zero();  // Limiter::Off: no sleep at all
  FramepacePolicy off{cfg.framepace, cfg.sim};
  const SimRun run = simulate(off, renders([](std::int64_t) { return 5_ms; }), 10, SimOptions{});
  for (const FrameRecord& r : run.records) EXPECT_EQ(r.pacer_wait, Nanos::zero());
}
