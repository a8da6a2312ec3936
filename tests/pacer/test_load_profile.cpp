#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "pacer/load_profile.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {
TraceOpener files(std::string content) {
  return [content](const std::string& path) -> std::unique_ptr<std::istream> {
    if (path != "t.csv") return nullptr;
    return std::make_unique<std::istringstream>(content);
  };
}
std::string error_of(std::string_view spec, const TraceOpener& open = {}) {
  try {
    LoadProfile::parse(spec, open);
  } catch (const LoadSpecError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST(LoadProfile, EachShape) {
  EXPECT_EQ(LoadProfile::parse("constant:5", {}).at(123), 5_ms);
  const auto step = LoadProfile::parse("step:2,8@300", {});
  EXPECT_EQ(step.at(299), 2_ms);
  EXPECT_EQ(step.at(300), 8_ms);
  const auto spike = LoadProfile::parse("spike:3,40/120", {});
  EXPECT_EQ(spike.at(0), 3_ms);
  EXPECT_EQ(spike.at(119), 40_ms);
  EXPECT_EQ(spike.at(120), 3_ms);
  EXPECT_EQ(spike.at(239), 40_ms);
  const auto ramp = LoadProfile::parse("ramp:2,12@10", {});
  EXPECT_EQ(ramp.at(0), 2_ms);
  EXPECT_EQ(ramp.at(5), 7_ms);
  EXPECT_EQ(ramp.at(50), 12_ms);
  const auto sine = LoadProfile::parse("sine:6,3/240", {});
  EXPECT_EQ(sine.at(0), 6_ms);
  EXPECT_EQ(sine.at(60), 9_ms);
  EXPECT_EQ(sine.at(180), 3_ms);
}

TEST(LoadProfile, RandomWalkIsSeededAndStaysNearItsMean) {
  const auto a = LoadProfile::parse("walk:6,0.5,seed=3", {});
  const auto b = LoadProfile::parse("walk:6,0.5,seed=3", {});
  const auto c = LoadProfile::parse("walk:6,0.5,seed=4", {});
  bool differs = false;
  for (std::int64_t f = 0; f < 2000; ++f) {
    EXPECT_EQ(a.at(f), b.at(f));
    differs = differs || a.at(f) != c.at(f);
    EXPECT_GT(a.ms_at(f), 6 - 5.0);
    EXPECT_LT(a.ms_at(f), 6 + 5.0);
  }
  EXPECT_TRUE(differs);
  EXPECT_EQ(a.at(10), LoadProfile::parse("walk:6,0.5,seed=3", {}).at(10)) << "random access gives the same path";
}

TEST(LoadProfile, TraceColumnScaleAndLoop) {
  const auto open = files("frame_ms,busy_ms\n10,4\n20,6\n30,8\n");
  const auto t = LoadProfile::parse("trace:t.csv,scale=0.5", open);
  EXPECT_EQ(t.at(0), 5_ms);
  EXPECT_EQ(t.at(2), 15_ms);
  EXPECT_EQ(t.at(9), 15_ms) << "without loop the last sample holds";
  const auto looped = LoadProfile::parse("trace:t.csv,col=busy_ms,loop", open);
  EXPECT_EQ(looped.at(3), 4_ms);
  EXPECT_EQ(looped.at(4), 6_ms);
}

TEST(LoadProfile, SequenceOfParts) {
  const auto s = LoadProfile::parse("seq:2*constant:1;3*spike:2,9/3;constant:7", {});
  const std::int64_t expect[] = {1, 1, 2, 2, 9, 7, 7};
  for (std::int64_t f = 0; f < 7; ++f) EXPECT_EQ(s.at(f), Nanos{expect[f] * 1'000'000}) << f;
}

TEST(LoadProfile, MalformedSpecsAndTracesSayWhatAndWhere) {
  EXPECT_EQ(error_of("bogus:1"), "load spec 'bogus:1': unknown kind 'bogus' (constant, step, spike, ramp, sine, walk, trace, seq)");
  EXPECT_EQ(error_of("constant:abc"), "load spec 'constant:abc': value 'abc' is not a non-negative number");
  EXPECT_EQ(error_of("step:1,2"), "load spec 'step:1,2': expected A,B@FRAME");
  EXPECT_EQ(error_of("trace:missing.csv", files("")), "load spec 'trace:missing.csv': cannot read trace 'missing.csv'");
  EXPECT_EQ(error_of("trace:t.csv", files("frame_ms\n10\n1x\n")), "t.csv:3: '1x' is not a number in column frame_ms");
  EXPECT_EQ(error_of("trace:t.csv,col=busy_ms", files("frame_ms\n10\n")), "t.csv:1: no column 'busy_ms' in the header");
  EXPECT_EQ(error_of("seq:constant:1;constant:2"), "load spec 'seq:constant:1;constant:2': every part but the last needs N*SPEC");
}

TEST(LoadProfile, SimCostsFollowTheProfiles) {
  LoadSet load{LoadProfile::parse("step:1,5@2", {}), LoadProfile::constant(0.5), {}};
  const SimCosts costs = sim_costs(load);
  EXPECT_EQ(costs.render(1), 1_ms);
  EXPECT_EQ(costs.render(2), 5_ms);
  EXPECT_EQ(costs.update(7, 99), 500_us);
}

TEST(LoadProfile, NumbersOutOfRangeOrNotFiniteAreRefusedNamingSpecAndNumber) {
  EXPECT_EQ(error_of("constant:1e9"), "load spec 'constant:1e9': value 1e9 is out of range [0, 10000]");
  EXPECT_EQ(error_of("constant:1e308"), "load spec 'constant:1e308': value 1e308 is out of range [0, 10000]");
  EXPECT_EQ(error_of("constant:nan"), "load spec 'constant:nan': value 'nan' is not a non-negative number");
  EXPECT_EQ(error_of("constant:inf"), "load spec 'constant:inf': value 'inf' is not a non-negative number");
  EXPECT_EQ(error_of("constant:-1"), "load spec 'constant:-1': value '-1' is not a non-negative number");
  EXPECT_EQ(error_of("spike:3,20000/10"), "load spec 'spike:3,20000/10': second value 20000 is out of range [0, 10000]");
  EXPECT_EQ(error_of("step:1,2@1e13"), "load spec 'step:1,2@1e13': FRAME 1e13 is out of range [1, 10^12]");
  EXPECT_EQ(error_of("sine:5,3/10000000000000"), "load spec 'sine:5,3/10000000000000': period 10000000000000 is out of range [1, 10^12]");
  EXPECT_EQ(error_of("step:1,2@1.5"), "load spec 'step:1,2@1.5': FRAME '1.5' is not a positive whole number");
  EXPECT_EQ(LoadProfile::parse("constant:10000", {}).at(0), Nanos{10'000'000'000});
}

TEST(LoadProfile, TraceValuesOutOfRangeNameFileAndLine) {
  EXPECT_EQ(error_of("trace:t.csv", files("frame_ms\n10\n1e12\n")), "t.csv:3: 1e12 is out of range [0, 10000] in column frame_ms");
  EXPECT_EQ(error_of("trace:t.csv", files("frame_ms\n10\nnan\n")), "t.csv:3: 'nan' is not a number in column frame_ms");
  EXPECT_EQ(error_of("trace:t.csv,scale=1000", files("frame_ms\n10\n20\n")),
            "load spec 'trace:t.csv,scale=1000': scale=1000 makes a sample 20000, more than 10000");
}

TEST(LoadProfile, TraceByteOrderMarkIsSkippedAndBinaryRefused) {
  const auto bom = LoadProfile::parse("trace:t.csv", files("\xEF\xBB\xBF" "frame_ms\n7\n"));
  EXPECT_EQ(bom.at(0), 7_ms);
  EXPECT_EQ(error_of("trace:t.csv", files(std::string("frame_ms\n1\n2\0" "3\n", 13))),
            "t.csv:3: binary content (a control byte), not a CSV trace");
  EXPECT_EQ(error_of("trace:t.csv", files(std::string("\0\0\0\0", 4))), "t.csv:1: binary content (a control byte), not a CSV trace");
}

TEST(LoadProfile, ATracePathMayHoldCommasTheOptionsAreReadFromTheEnd) {
  const TraceOpener open = [](const std::string& path) -> std::unique_ptr<std::istream> {
    if (path != "a,b.csv") return nullptr;
    return std::make_unique<std::istringstream>("frame_ms\n4\n8\n");
  };
  const auto t = LoadProfile::parse("trace:a,b.csv,scale=0.5,loop", open);
  EXPECT_EQ(t.at(1), 4_ms);
  EXPECT_EQ(t.at(2), 2_ms) << "loop";
  EXPECT_EQ(error_of("trace:t.csv,lop", files("frame_ms\n1\n")), "load spec 'trace:t.csv,lop': cannot read trace 't.csv,lop'");
}

TEST(LoadProfile, TheFileOpenerRefusesDirectoriesDevicesAndMissingFilesWithTheReason) {
  const TraceOpener open = trace_file_opener({});
  auto why = [&open](const std::string& path) {
    try {
      open(path);
    } catch (const LoadSpecError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(why("/"), "trace '/': is a directory, not a file");
  EXPECT_EQ(why("/dev/zero"), "trace '/dev/zero': not a regular file");
  EXPECT_EQ(why("/nonexistent/t.csv"), "trace '/nonexistent/t.csv': No such file or directory");
  // A relative name not found as given is looked up under the search folders.
  const std::string dir = ::testing::TempDir();
  {
    std::ofstream f{dir + "opener_test.csv"};
    f << "frame_ms\n3\n";
  }
  const TraceOpener in_dir = trace_file_opener({dir});
  auto in = in_dir("opener_test.csv");
  ASSERT_TRUE(in);
  std::string header;
  std::getline(*in, header);
  EXPECT_EQ(header, "frame_ms");
  std::remove((dir + "opener_test.csv").c_str());
}
