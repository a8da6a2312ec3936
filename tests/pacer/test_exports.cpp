#include <gtest/gtest.h>

#include <sstream>

#include "pacer/adaptive.hpp"
#include "pacer/exports.hpp"
#include "pacer/simulator.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {
std::vector<FrameRecord> worked_records(int frames) {
  AdaptiveConfig cfg;
  cfg.initial_interval = 16_ms;
  cfg.shrink = false;
  FixedStepConfig sim;
  sim.step = 5_ms;
  AdaptivePolicy p{cfg, sim};
  auto records = simulate(p, SimCosts::fixed(3_ms, 1_ms), frames).records;
  for (auto& r : records) r.display = r.present + 2_ms;
  return records;
}
std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in{text};
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}
}  // namespace

TEST(Exports, PresentMonHeaderIsExactAndRowsFollowIt) {
  std::ostringstream out;
  RunInfo info;
  info.application = "app";
  info.process_id = 42;
  info.present_mode = "immediate";
  auto sink = make_log_sink(LogFormat::presentmon, out, info);
  for (const auto& r : worked_records(3)) sink->write(r);
  sink->finish();
  const auto l = lines(out.str());
  ASSERT_EQ(l.size(), 4u);
  EXPECT_EQ(l[0],
            "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,Dropped,TimeInSeconds,"
            "msInPresentAPI,msBetweenPresents,AllowsTearing,PresentMode,msUntilRenderComplete,msUntilDisplayed,"
            "msBetweenDisplayChange");
  // Frame 1 presented at 19 ms, 16 ms after frame 0; shown 2 ms later; displays 16 ms apart.
  EXPECT_EQ(l[2], "app,42,0x0000000000001000,Vulkan,0,0,0,0.019000,NA,16.0000,1,Unknown,NA,2.0000,16.0000");
}

TEST(Exports, MangoHudHasItsThreeLineHeader) {
  std::ostringstream out;
  RunInfo info;
  info.device = "llvmpipe";
  auto sink = make_log_sink(LogFormat::mangohud, out, info);
  for (const auto& r : worked_records(3)) sink->write(r);
  const auto l = lines(out.str());
  ASSERT_EQ(l.size(), 5u);  // 3 header lines, then a row per frame interval
  EXPECT_EQ(l[0], "os,cpu,gpu,ram,kernel,driver,cpuscheduler");
  EXPECT_EQ(l[2],
            "fps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,gpu_vram_used,"
            "gpu_power,ram_used,swap_used,process_rss,elapsed");
  EXPECT_EQ(l[3], "62.5000,16.0000,0,0,0,0,0,0,0,0,0,0,0,21000000");
}

TEST(Exports, ChromeTraceIsOneJsonObjectWithSlicesCountersAndInstants) {
  std::ostringstream out;
  RunInfo info;
  info.policy = "adaptive \"quoted\"";
  ChromeTraceWriter trace{out, info};
  auto records = worked_records(4);
  records[2].events = event_widen;
  for (const auto& r : records) trace.write(r);
  trace.finish();
  const std::string s = out.str();
  EXPECT_EQ(s.rfind("{\"displayTimeUnit\"", 0), 0u);
  EXPECT_NE(s.find("adaptive \\\"quoted\\\""), std::string::npos);
  EXPECT_NE(s.find("\"name\":\"frame 1\",\"cat\":\"frame\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":16000.000,\"dur\":16000.000"),
            std::string::npos);
  EXPECT_NE(s.find("\"name\":\"render\""), std::string::npos);
  EXPECT_NE(s.find("\"name\":\"wait\""), std::string::npos);
  EXPECT_NE(s.find("\"name\":\"widen\",\"cat\":\"interval\",\"ph\":\"i\""), std::string::npos);
  EXPECT_NE(s.find("\"name\":\"interval_ms\",\"ph\":\"C\""), std::string::npos);
  EXPECT_EQ(s.substr(s.size() - 4), "\n]}\n");
  // Balanced braces and brackets outside strings: a cheap well-formedness check.
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') ++depth;
    else if (c == '}' || c == ']') --depth;
    ASSERT_GE(depth, 0);
  }
  EXPECT_EQ(depth, 0);
}

TEST(Exports, RunMetadataAndFormatNames) {
  std::ostringstream out;
  RunInfo info;
  info.application = "a";
  info.config = {{"step_ms", "40"}};
  write_run_metadata(out, info);
  EXPECT_NE(out.str().find("\"config\": {\n    \"step_ms\": \"40\"\n  }"), std::string::npos) << out.str();
  EXPECT_EQ(parse_log_format("presentmon"), LogFormat::presentmon);
  EXPECT_FALSE(parse_log_format("csv").has_value());
  EXPECT_EQ(json_string("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
}
