// bench/miss_reasons.hpp: what a run's records say about why a row misses (bench/compare's
// "Why each missing row misses"). Hand-made records: 10 ms frames shown as planned, then
// one shown late, one long gap, one drop.
#include <gtest/gtest.h>

#include <vector>

#include "miss_reasons.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

/// Frame i starts at 10 i ms, renders 8 ms, shows the world of 10 i + 10 ms at that time.
std::vector<FrameRecord> steady(std::size_t frames) {
  std::vector<FrameRecord> v(frames);
  for (std::size_t i = 0; i < frames; ++i) {
    const Nanos t = 10_ms * static_cast<std::int64_t>(i);
    v[i].frame = static_cast<std::int64_t>(i);
    v[i].cpu_start = t;
    v[i].render = 8_ms;
    v[i].update = 1_ms;
    v[i].pacer_wait = 1_ms;
    v[i].present = t + 8_ms;
    v[i].display = t + 10_ms;
    v[i].animation_time = t + 10_ms;
  }
  return v;
}

}  // namespace

TEST(MissReasons, TheFramesAtTheP99AreSplitIntoShownLateAndWorldAhead) {
  auto v = steady(200);
  // Frame 100 shown 3 ms after the world it shows: -3 ms against frame 99, +3 ms for frame
  // 101 (the display advanced 3 ms less than the world).
  *v[100].display += 3_ms;
  const fpbench::RunFacts f = fpbench::facts_of(v, 0, summarize(v, {.warmup_frames = 0}));
  EXPECT_EQ(f.top, 2);
  EXPECT_EQ(f.top_late, 1);
  EXPECT_DOUBLE_EQ(f.top_late_median_ms, 3.0);
  EXPECT_EQ(f.top_ahead, 1);
  EXPECT_DOUBLE_EQ(f.top_ahead_median_ms, 3.0);
  EXPECT_DOUBLE_EQ(f.busy_ms, 9.0);
  EXPECT_DOUBLE_EQ(f.wait_ms, 1.0);
  EXPECT_NEAR(f.interval_ms, 10.0, 1e-9);
  EXPECT_TRUE(f.stutters.empty());
}

TEST(MissReasons, AStutterCarriesItsGapAndRenderAndTheWarmUpIsSkipped) {
  auto v = steady(200);
  for (std::size_t i = 150; i < v.size(); ++i) {
    *v[i].display += 40_ms;  // a 50 ms gap before frame 150
    v[i].animation_time += 40_ms;
  }
  v[150].render = 12_ms;
  v[160].dropped = 7_ms;
  v[20].dropped = 30_ms;  // in the warm-up
  const fpbench::RunFacts f = fpbench::facts_of(v, 60, summarize(v, {.warmup_frames = 60}));
  ASSERT_EQ(f.stutters.size(), 1u);
  EXPECT_EQ(f.stutters[0], 150);
  EXPECT_NEAR(f.stutter_gap_ms[0], 50.0, 1e-9);
  EXPECT_NEAR(f.stutter_render_ms[0], 12.0, 1e-9);
  EXPECT_NEAR(f.stutter_rest_ms[0], 50.0 - 12.0 - 1.0, 1e-9) << "the gap less the render and the updates before it";
  EXPECT_EQ(f.drop_frames, 1);
  EXPECT_DOUBLE_EQ(f.drop_max_ms, 7.0);
}

TEST(MissReasons, StuttersPairOneToOneWithinThreeFrames) {
  // Two stutters in a row against one of the baseline's: one is this run's own.
  EXPECT_EQ(fpbench::unmatched({253, 254}, {253}), (std::vector<std::size_t>{1}));
  EXPECT_EQ(fpbench::unmatched({100, 500}, {103, 497}), (std::vector<std::size_t>{}));
  EXPECT_EQ(fpbench::unmatched({100, 500}, {104}), (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(fpbench::unmatched({}, {5}), (std::vector<std::size_t>{}));
  // Same frames pair first: control_native_1080p's 348, 349, 350 against 349, 350 leave 348.
  EXPECT_EQ(fpbench::unmatched({348, 349, 350}, {349, 350}), (std::vector<std::size_t>{0}));
  // ... but never at the cost of a pair: 10 and 13 against 13 and 16 all pair (10-13, 13-16).
  EXPECT_EQ(fpbench::unmatched({10, 13}, {13, 16}), (std::vector<std::size_t>{}));
  EXPECT_EQ(fpbench::unmatched({5, 8}, {2, 5}), (std::vector<std::size_t>{}));
}

TEST(MissReasons, TooFewFramesGiveNoFacts) {
  const fpbench::RunFacts f = fpbench::facts_of(steady(5), 60, summarize(steady(5), {.warmup_frames = 60}));
  EXPECT_EQ(f.top, 0);
  EXPECT_TRUE(f.stutters.empty());
  EXPECT_EQ(f.interval_ms, 0.0);
}
