// samples::TimedLoad: the samples' load specs with phases in seconds (load_sweep's default).
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "../../samples/common/timed_load.hpp"

using samples::TimedLoad;

namespace {
pacer::TraceOpener files() {
  return [](const std::string& path) -> std::unique_ptr<std::istream> {
    if (path != "t.csv") return nullptr;
    return std::make_unique<std::istringstream>("frame_ms\n10\n20\n30\n");
  };
}
std::string error_of(std::string_view spec) {
  try {
    TimedLoad::parse(spec, files());
  } catch (const pacer::LoadSpecError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST(TimedLoad, FrameSpecsArePacersByFrameIndex) {
  auto load = TimedLoad::parse("seq:2*constant:1;constant:5", files());
  EXPECT_EQ(load.ms(0, 100.0), 1.0);
  EXPECT_EQ(load.ms(1, 200.0), 1.0);
  EXPECT_EQ(load.ms(2, 0.0), 5.0);
  EXPECT_EQ(TimedLoad{}.ms(0, 0), 0.0);
}

TEST(TimedLoad, PhasesLastSecondsWhateverTheFrameRate) {
  auto load = TimedLoad::parse("seq:5s*constant:1;2.5s*constant:12;trace:t.csv,loop", files());
  EXPECT_EQ(load.ms(0, 0.0), 1.0);
  EXPECT_EQ(load.ms(1, 4.99), 1.0);
  EXPECT_EQ(load.ms(2, 5.0), 12.0);
  EXPECT_EQ(load.ms(3, 7.49), 12.0);
  // The last phase for ever; its trace counts frames from the phase's first one.
  EXPECT_EQ(load.ms(40, 7.6), 10.0);
  EXPECT_EQ(load.ms(41, 7.7), 20.0);
  EXPECT_EQ(load.ms(42, 7.8), 30.0);
  EXPECT_EQ(load.ms(43, 1000.0), 10.0);
}

TEST(TimedLoad, AFrameAskedAgainCostsTheSame) {
  auto load = TimedLoad::parse("spike:2,45/1s", files());
  EXPECT_EQ(load.ms(0, 0.0), 2.0);
  EXPECT_EQ(load.ms(1, 1.01), 45.0);
  EXPECT_EQ(load.ms(1, 1.02), 45.0) << "the updates of a frame ask again";
  EXPECT_EQ(load.ms(2, 1.07), 2.0);
}

TEST(TimedLoad, TimedSpikeOnTheFirstFrameOfEachPeriod) {
  auto load = TimedLoad::parse("seq:2s*constant:1;spike:2,45/1s", files());
  std::vector<double> spikes_at;
  // 20 fps for 6 s: the spike phase starts at 2 s, its spikes fall at 3, 4, 5 s.
  for (std::int64_t f = 0; f < 120; ++f) {
    const double t = static_cast<double>(f) * 0.05;
    if (load.ms(f, t) == 45.0) spikes_at.push_back(t);
  }
  ASSERT_EQ(spikes_at.size(), 3u);
  EXPECT_NEAR(spikes_at[0], 3.0, 1e-9);
  EXPECT_NEAR(spikes_at[1], 4.0, 1e-9);
  EXPECT_NEAR(spikes_at[2], 5.0, 1e-9);
  // A slow frame rate skips no spike: one per period, on the first frame in it.
  auto slow = TimedLoad::parse("spike:2,45/1s", files());
  int n = 0;
  for (std::int64_t f = 0; f < 20; ++f) n += slow.ms(f, static_cast<double>(f) * 0.7) == 45.0;
  EXPECT_EQ(n, 13);  // frames at 0.7 s steps reach periods 1..13 by 13.3 s, one spike each
}

TEST(TimedLoad, MalformedSpecsAreOneLineErrors) {
  EXPECT_EQ(error_of("seq:5s*constant:1;300*constant:2;constant:3"),
            "load spec 'seq:5s*constant:1;300*constant:2;constant:3': the parts of a seq count all frames (N*SPEC) or "
            "all seconds (Ns*SPEC), not both");
  EXPECT_EQ(error_of("seq:5s*constant:1;constant:2;constant:3"),
            "load spec 'seq:5s*constant:1;constant:2;constant:3': every part but the last needs Ns*SPEC");
  EXPECT_EQ(error_of("seq:0s*constant:1;constant:2"),
            "load spec 'seq:0s*constant:1;constant:2': phase length '0s' is not a positive number of seconds");
  EXPECT_EQ(error_of("spike:2/1s"), "load spec 'spike:2/1s': expected spike:BASE,PEAK/Ts");
  EXPECT_EQ(error_of("seq:5s*constant:x;constant:2"), "load spec 'constant:x': value 'x' is not a non-negative number");
  EXPECT_EQ(error_of("trace:missing.csv"), "load spec 'trace:missing.csv': cannot read trace 'missing.csv'");
}
