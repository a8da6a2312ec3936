// samples/own_renderer on a real Vulkan device (lavapipe under Xvfb): a game's own renderer
// under engine::Loop, frame by frame, with validation on, through a pause and a time scale.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "files.hpp"

namespace {

struct Result {
  int exit_code = -1;
  std::string output;
};

/// own_renderer with `args`: stdout and stderr together, under Xvfb when there is no display.
Result run_own(const std::string& args) {
  const std::string exe = FP_OWN_RENDERER;
  // Xvfb itself must not get the sanitizer builds' LD_PRELOAD (libasan, lavapipe): only the sample.
  const std::string cmd = "if [ -z \"$DISPLAY\" ]; then exec env -u LD_PRELOAD xvfb-run -a env LD_PRELOAD=\"$LD_PRELOAD\" " +
                          exe + " " + args + "; else exec " + exe + " " + args + "; fi 2>&1";
  Result r;
  FILE* pipe = popen(("sh -c '" + cmd + "'").c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe)) r.output += buf;
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace

TEST(OwnRenderer, RunsWithValidationAndNoMessages) {
  const Result r = run_own("--frames 120 --validation");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("validation: 0 messages"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("summary: 120 frames"), std::string::npos) << r.output;
}

TEST(OwnRenderer, PausesAndScalesTimeUnderValidation) {
  const Result r = run_own("--frames 180 --validation --quiet --pause-at 40 --time-scale 0.5 --policy swappy --log own_run.csv");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("validation: 0 messages"), std::string::npos) << r.output;
  EXPECT_EQ(line_count("own_run.csv"), 181u) << "a header and one row per frame";
}

TEST(OwnRenderer, MailboxWithTheDemoKeysOn) {
  const Result r = run_own("--frames 90 --validation --quiet --present-mode mailbox --demo-keys");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("validation: 0 messages"), std::string::npos) << r.output;
}

TEST(OwnRenderer, ABadFlagIsAUsageError) {
  const Result r = run_own("--frames 0");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("own_renderer: --frames: 0 is out of range"), std::string::npos) << r.output;
}

TEST(OwnRenderer, ALogThatCannotBeWrittenEndsTheRunWithItsReason) {
  // The log is written in whole rows (pacer::RecordFile): a full device ends the run with the
  // system's reason and exit 1 (it ran on to exit 0 with nothing written, and a file-size
  // limit left a torn last row).
  const Result r = run_own("--frames 30 --quiet --log /dev/full");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("own_renderer: writing '/dev/full' failed: No space left on device"), std::string::npos) << r.output;
}
