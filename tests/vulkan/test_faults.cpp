// GPU and window faults (issue 10): FP_FAULT, read by the samples into the renderer's
// RendererConfig::fault (renderer/README.md, test only), makes the renderer report a lost
// device, a lost surface or an out-of-date swapchain at a given frame as if the driver had.
// A lost device or surface ends the sample with exit 1, one line on stderr naming the
// VkResult, and the log flushed (every frame before the fault in it, the sidecar written);
// an out-of-date swapchain at every frame is survived.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "files.hpp"

namespace {

struct FaultRun {
  int exit_code = -1;
  std::string out, err;
};

/// The sample with FP_FAULT=`fault` and `args`; stdout and stderr apart.
FaultRun run_faulted(const std::string& name, const std::string& fault, const std::string& args) {
  const std::string out = name + ".stdout", err = name + ".stderr";
  const std::string cmd = "FP_FAULT='" + fault + "' " + std::string{FP_SAMPLE} + " " + args + " >" + out + " 2>" + err;
  FaultRun r;
  const int status = std::system(cmd.c_str());
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

std::vector<std::string> lines(const std::string& path) {
  std::ifstream in{path};
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// Exit 1, one line on stderr naming `result`, the 40 frames before the fault in the log, the sidecar.
void expect_fatal_fault_keeps_the_log(const std::string& name, const std::string& fault, const std::string& mode,
                                      const std::string& result) {
  const std::string log = name + ".csv", meta = name + ".meta.json";
  std::filesystem::remove(log);
  std::filesystem::remove(meta);
  const FaultRun r = run_faulted(name, fault, mode + " --frames 200 --policy adaptive --log " + log);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(count(r.err, "\n"), 1u) << "one line on stderr:\n" << r.err;
  EXPECT_NE(r.err.find("bouncing_balls: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(result), std::string::npos) << r.err;
  const std::vector<std::string> rows = lines(log);
  ASSERT_EQ(rows.size(), 41u) << "a header and frames 0..39, the frames presented before the fault";
  EXPECT_EQ(rows.back().substr(0, 3), "39,") << rows.back();
  EXPECT_TRUE(std::filesystem::exists(meta)) << "the sidecar is written on the error path too";
}

}  // namespace

TEST(VulkanFaults, DeviceLostHeadlessEndsTheRunWithTheLogKept) {
  expect_fatal_fault_keeps_the_log("fault_device_headless", "device_lost@40", "--headless", "VK_ERROR_DEVICE_LOST");
}

TEST(VulkanFaults, DeviceLostWindowedEndsTheRunWithTheLogKept) {
  expect_fatal_fault_keeps_the_log("fault_device", "device_lost@40", "--present-mode fifo", "VK_ERROR_DEVICE_LOST");
}

TEST(VulkanFaults, SurfaceLostEndsTheRunWithTheLogKept) {
  expect_fatal_fault_keeps_the_log("fault_surface", "surface_lost@40", "--present-mode fifo",
                                   "VK_ERROR_SURFACE_LOST_KHR");
}

TEST(VulkanFaults, OutOfDateOnceIsSurvived) {
  const FaultRun r = run_faulted("fault_ood_once", "out_of_date@10", "--present-mode fifo --frames 60 --validation --log fault_ood_once.csv");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(count(r.out, "swapchain recreated"), 1u) << r.out;
  EXPECT_NE(r.out.find(" 0 errors"), std::string::npos) << r.out;
  EXPECT_EQ(lines("fault_ood_once.csv").size(), 61u);
}

TEST(VulkanFaults, OutOfDateEveryFrameFor300FramesIsSurvivedWithValidationClean) {
  const FaultRun r = run_faulted("fault_ood_every", "out_of_date_every",
                    "--present-mode fifo --frames 300 --validation --log fault_ood_every.csv");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Recreated before every frame after the first.
  EXPECT_EQ(count(r.out, "swapchain recreated"), 299u) << r.err;
  EXPECT_NE(r.out.find("validation: "), std::string::npos) << r.out.substr(r.out.size() > 2000 ? r.out.size() - 2000 : 0);
  EXPECT_NE(r.out.find(" 0 errors"), std::string::npos) << r.out.substr(r.out.size() > 2000 ? r.out.size() - 2000 : 0);
  EXPECT_EQ(lines("fault_ood_every.csv").size(), 301u) << "a header and one row per frame";
}

TEST(VulkanFaults, AMalformedFaultIsARuntimeErrorOnOneLine) {
  const FaultRun r = run_faulted("fault_bad", "device_lost@soon", "--headless --frames 3");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "bouncing_balls: fault injection: expected device_lost@N, surface_lost@N, out_of_date@N or out_of_date_every, got "
            "'device_lost@soon'\n");
  const FaultRun h = run_faulted("fault_headless_surface", "surface_lost@3", "--headless --frames 10");
  EXPECT_EQ(h.exit_code, 1);
  EXPECT_NE(h.err.find("need a window"), std::string::npos) << h.err;
}

TEST(VulkanFaults, ARunThatFailsBeforeItsFirstFrameLeavesAnEarlierLogAsItWas) {
  // The outputs are checked before the device is made, but an existing file keeps what it
  // held until the run writes (pacer::RecordFile): no device (--gpu 7 on a machine with one) is
  // exit 1 with the earlier log, trace and sidecar untouched, and no file it created left.
  const std::string log = "fail_early.csv", meta = "fail_early.meta.json", trace = "fail_early.trace.json";
  for (const auto& f : {log, meta, trace}) std::filesystem::remove(f);
  const FaultRun first = run_faulted("fail_early_first", "", "--headless --frames 10 --log " + log);
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  const std::string before = slurp(log), meta_before = slurp(meta);
  ASSERT_EQ(lines(log).size(), 11u);
  const FaultRun r = run_faulted("fail_early", "", "--headless --frames 10 --gpu 7 --log " + log + " --trace " + trace);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("bouncing_balls: "), std::string::npos) << r.err;
  EXPECT_EQ(slurp(log), before) << "the earlier log is kept";
  EXPECT_EQ(slurp(meta), meta_before) << "and its sidecar";
  EXPECT_FALSE(std::filesystem::exists(trace)) << "a trace this run created and never wrote is removed";
}
