// The shared command line: the pacing flags reach the policy config; bad values are usage
// errors (exit code 2, one line).
#include <gtest/gtest.h>

#include <algorithm>
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
