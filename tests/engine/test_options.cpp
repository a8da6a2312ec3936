// The shared command line: the pacing flags reach the policy config; bad values are usage
// errors (exit code 2, one line).
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <string>
#include <vector>

#include "engine/options.hpp"

namespace {

int parse(std::vector<std::string> args, engine::Options& out) {
  args.insert(args.begin(), "sample");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  engine::Cli cli{"sample", "a test"};
  return cli.parse(static_cast<int>(argv.size()), argv.data(), out);
}

}  // namespace

TEST(Options, PipelineFramesAndEvenCadenceReachTheAdaptiveConfig) {
  engine::Options o;
  EXPECT_EQ(parse({"--pipeline-frames", "1", "--even-cadence"}, o), -1);
  EXPECT_EQ(o.pacing.adaptive.pipeline_frames, 1);
  EXPECT_EQ(o.pacing.adaptive.mixed_cadence_loss, 1.0);
}

TEST(Options, DefaultsLeaveTheAdaptiveConfigAlone) {
  engine::Options o;
  EXPECT_EQ(parse({}, o), -1);
  const pacer::AdaptiveConfig defaults;
  EXPECT_EQ(o.pacing.adaptive.pipeline_frames, defaults.pipeline_frames);
  EXPECT_EQ(o.pacing.adaptive.mixed_cadence_loss, defaults.mixed_cadence_loss);
}

TEST(Options, APipelineDepthOutOfRangeIsAUsageError) {
  engine::Options o;
  testing::internal::CaptureStderr();
  EXPECT_EQ(parse({"--pipeline-frames", "0"}, o), 2);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("--pipeline-frames"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
}

namespace {

/// The one line on stderr and the exit code of parsing `args`.
std::pair<int, std::string> usage_of(std::vector<std::string> args) {
  engine::Options o;
  testing::internal::CaptureStderr();
  const int code = parse(std::move(args), o);
  return {code, testing::internal::GetCapturedStderr()};
}

}  // namespace

TEST(Options, NumbersOutOfRangeOrNotFiniteNameTheFlagAndTheRange) {
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"--frames", "0"}, "sample: --frames: 0 is out of range [1, 10000000]\n"},
      {{"--frames", "1e8"}, "sample: --frames: 1e8 is out of range [1, 10000000]\n"},
      {{"--frames", "2.5"}, "sample: --frames: '2.5' is not a whole number\n"},
      {{"--seed", "-1"}, "sample: --seed: -1 is out of range [0, 9223372036854775807]\n"},
      {{"--seed", "18446744073709551615"}, "sample: --seed: 18446744073709551615 is out of range [0, 9223372036854775807]\n"},
      // 2^63 as a decimal: it passed the range check as a double and its cast was undefined.
      {{"--seed", "9223372036854775807.0"}, "sample: --seed: 9223372036854775807.0 is out of range [0, 9223372036854775807]\n"},
      {{"--duration", "nan"}, "sample: --duration: nan is not a finite number\n"},
      {{"--duration", "inf"}, "sample: --duration: inf is out of range [0.001, 1000000]\n"},
      {{"--step-ms", "1e308"}, "sample: --step-ms: 1e308 is out of range [0.01, 1000]\n"},
      {{"--refresh-hz", "abc"}, "sample: --refresh-hz: 'abc' is not a number\n"},
      {{"--size", "4294967312x100"}, "sample: --size: 4294967312x100 is out of range (each 16 to 16384)\n"},
      {{"--size", "8x100"}, "sample: --size: 8x100 is out of range (each 16 to 16384)\n"},
      {{"--size", "100"}, "sample: --size: expected WxH (each 16 to 16384), got '100'\n"},
      {{"--log", ""}, "sample: --log: the file name is empty\n"},
      {{"--log", "x.csv", "--trace", "x.csv"}, "sample: --trace: 'x.csv' is also the --log file\n"},
      {{"--policy", "bogus"}, "sample: --policy: expected adaptive|adaptive-literal|accumulator|accumulator-capped|flipcode|variable|swappy|framepace, got 'bogus'\n"},
      {{"--frames"}, "sample: --frames needs a value\n"},
      {{"--frobnicate"}, "sample: unknown option '--frobnicate' (see --help)\n"},
  };
  for (const auto& [args, expected] : cases) {
    const auto [code, err] = usage_of(args);
    EXPECT_EQ(code, 2) << args.front();
    EXPECT_EQ(err, expected) << args.front();
  }
}

TEST(Options, ValuesInRangeReachTheOptions) {
  engine::Options o;
  EXPECT_EQ(parse({"--frames", "1e3", "--seed", "9223372036854775807", "--size", "16384x16", "--step-ms", "5",
                   "--max-steps", "3", "--debt", "keep", "--no-shrink"},
                  o),
            -1);
  EXPECT_EQ(o.frames, 1000);
  EXPECT_EQ(o.seed, 9223372036854775807ULL);
  EXPECT_EQ(o.width, 16384u);
  EXPECT_EQ(o.height, 16u);
  EXPECT_EQ(o.pacing.sim.step, pacer::from_ms(5));
  EXPECT_EQ(o.pacing.sim.max_steps_per_frame, 3);
  EXPECT_EQ(o.pacing.sim.debt, pacer::DebtPolicy::keep);
  EXPECT_FALSE(o.pacing.adaptive.shrink);
}

TEST(Options, HelpAndVersionExitZeroOnStdout) {
  engine::Options o;
  testing::internal::CaptureStdout();
  EXPECT_EQ(parse({"--help"}, o), 0);
  const std::string help = testing::internal::GetCapturedStdout();
  EXPECT_NE(help.find("--pipeline-frames"), std::string::npos) << help;
  engine::Options o2;
  testing::internal::CaptureStdout();
  EXPECT_EQ(parse({"--version"}, o2), 0);
  EXPECT_EQ(testing::internal::GetCapturedStdout().rfind("sample ", 0), 0u);
}

TEST(Options, AdaptiveKnobsAreKeptAsGivenAndCheckedTogether) {
  engine::Options o;
  EXPECT_EQ(parse({"--adaptive", "max_pushes=1", "--adaptive", "max_lag_ms=500"}, o), -1);
  EXPECT_EQ(o.adaptive, (std::vector<std::string>{"max_pushes=1", "max_lag_ms=500"}));
  EXPECT_EQ(o.pacing.adaptive.max_pushes, pacer::AdaptiveConfig{}.max_pushes) << "set after the display's fit, not here";
  for (const auto& [args, want] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--adaptive", "bogus=1"}, "--adaptive: 'bogus=1' is not a known NAME=NUMBER"},
           {{"--adaptive", "max_pushes"}, "--adaptive: 'max_pushes' is not NAME=NUMBER"},
           {{"--adaptive", "catch_up_pile=2"}, "--adaptive: AdaptiveConfig::catch_up_pile must be in (0, 1), got 2"},
           // Each alone would pass; together misses_to_widen is over miss_window.
           {{"--adaptive", "miss_window=3", "--adaptive", "misses_to_widen=4"}, "AdaptiveConfig::misses_to_widen"}}) {
    engine::Options bad;
    testing::internal::CaptureStderr();
    EXPECT_EQ(parse(args, bad), 2);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find(want), std::string::npos) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  }
}
