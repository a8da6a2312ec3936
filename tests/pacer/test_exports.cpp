#include <gtest/gtest.h>
#include <nlohmann/json.hpp>  // the tests prove every written JSON parses (the library stays standard-only)

#include <algorithm>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "pacer/adaptive.hpp"
#include "pacer/exports.hpp"
#include "pacer/simulator.hpp"
#include "pacer/stats.hpp"
#include "configs.hpp"
#include "worked_records.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {
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
  EXPECT_EQ(l[2], "app,42,0x0000000000001000,Vulkan,0,0,0,0.019000,0.0000,16.0000,1,Unknown,NA,2.0000,16.0000");
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

namespace {

/// Splits a CSV line (the exports never quote).
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in{line};
  for (std::string f; std::getline(in, f, ',');) out.push_back(f);
  return out;
}

/// Records of a display-aware run on a virtual 60 Hz FIFO with uneven costs: real display times.
std::vector<FrameRecord> fifo_records(int frames) {
  AdaptiveConfig cfg;
  cfg.refresh_period = period_of_hz(60);
  AdaptivePolicy p{cfg, step_5()};
  SimOptions opt;
  opt.display.mode = PresentMode::fifo;
  opt.display.period = cfg.refresh_period;
  SimCosts costs{[](std::int64_t f) { return f % 7 == 3 ? 21_ms : 4_ms; },
                 [](std::int64_t, std::int64_t) { return 500_us; }};
  costs.present = [](std::int64_t f) { return Nanos{200'000 + (f % 3) * 100'000}; };  // a present call of 0.2-0.4 ms
  return simulate(p, costs, frames, opt).records;
}

}  // namespace

TEST(Exports, RunMetadataIsReadBackBesideItsLog) {
  // The sidecar's name, and its values as written: what pacer-sim --replay and the
  // real-loop report read back.
  EXPECT_EQ(run_metadata_path("out/run.csv"), "out/run.meta.json");
  EXPECT_EQ(run_metadata_path("run"), "run.meta.json");
  RunInfo info;
  info.policy = "adaptive";
  info.config = {{"step_ms", "40.000000"}, {"display", "immediate:60"}, {"note", "say \"hi\" \\ bye"}};
  info.measured = {{"waiter_spin_ms", 1715.25}};
  Summary summary;
  summary.average_fps = 59.5;
  std::ostringstream out;
  write_run_metadata(out, info, &summary);
  const std::string json = out.str();
  EXPECT_EQ(run_metadata_value(json, "policy"), "adaptive");
  EXPECT_EQ(run_metadata_value(json, "step_ms"), "40.000000");
  EXPECT_EQ(run_metadata_value(json, "display"), "immediate:60");
  EXPECT_EQ(run_metadata_value(json, "note"), "say \"hi\" \\ bye");
  EXPECT_EQ(run_metadata_value(json, "waiter_spin_ms"), "1715.250000");
  EXPECT_EQ(run_metadata_value(json, "average_fps"), "59.500000");
  EXPECT_EQ(run_metadata_value(json, "absent"), std::nullopt);
  EXPECT_EQ(run_metadata_value("{\"cut\": \"no end", "cut"), std::nullopt);
}

TEST(Exports, PresentMonRowsGiveBackThePresentAndDisplayTimes) {
  // Read the export back the way CapFrameX does: the running sum of msBetweenPresents,
  // TimeInSeconds, and msUntilDisplayed give every frame's present and display time
  // again (to the 4 and 6 decimals written), so metrics computed from it match ours.
  const auto records = fifo_records(120);
  std::ostringstream out;
  RunInfo info;
  info.present_mode = "fifo";
  auto sink = make_log_sink(LogFormat::presentmon, out, info);
  for (const auto& r : records) sink->write(r);
  const auto l = lines(out.str());
  ASSERT_EQ(l.size(), records.size() + 1);
  const auto header = fields(l[0]);
  auto column = [&](std::string_view name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  // PresentMon times a present from its call's start: present_issued; the call's length is
  // msInPresentAPI.
  double present_ms = to_ms(records[0].present_issued);
  for (std::size_t i = 1; i < records.size(); ++i) {
    const auto f = fields(l[i + 1]);
    ASSERT_EQ(f.size(), header.size()) << i;
    present_ms += std::stod(f[column("msBetweenPresents")]);
    EXPECT_NEAR(present_ms, to_ms(records[i].present_issued), 1e-4 * static_cast<double>(i)) << i;
    EXPECT_NEAR(std::stod(f[column("TimeInSeconds")]) * 1000.0, to_ms(records[i].present_issued), 1e-3) << i;
    EXPECT_NEAR(std::stod(f[column("msInPresentAPI")]), to_ms(records[i].present - records[i].present_issued), 1e-4) << i;
    const double display_ms = to_ms(records[i].present_issued) + std::stod(f[column("msUntilDisplayed")]);
    EXPECT_NEAR(display_ms, to_ms(*records[i].display), 1e-4) << i;
    EXPECT_NEAR(std::stod(f[column("msBetweenDisplayChange")]), to_ms(*records[i].display - *records[i - 1].display),
                1e-4)
        << i;
    EXPECT_EQ(f[column("SyncInterval")], "1");
  }
}

TEST(Exports, PresentMonOffscreenShowsAFrameWhenItsCallStarts) {
  // Offscreen a frame is shown when its present is issued: msUntilDisplayed is 0, never the
  // negative call length it was when rows were timed from the call's return.
  FrameRecord r;
  r.present_issued = 10_ms;
  r.present = 10'400'000_ns;
  r.display = 10_ms;
  std::ostringstream out;
  RunInfo info;
  info.present_mode = "none (headless)";
  auto sink = make_log_sink(LogFormat::presentmon, out, info);
  sink->write(r);
  const auto l = lines(out.str());
  ASSERT_EQ(l.size(), 2u);
  const auto header = fields(l[0]), f = fields(l[1]);
  auto at = [&](std::string_view name) { return f[static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin())]; };
  EXPECT_EQ(at("TimeInSeconds"), "0.010000");
  EXPECT_EQ(at("msInPresentAPI"), "0.4000");
  EXPECT_EQ(at("msUntilDisplayed"), "0.0000");
}

TEST(Exports, MangoHudRowsGiveBackTheFrameIntervalsAndFps) {
  // One row per shown-frame interval: frametime is shown(i) - shown(i-1), fps its inverse,
  // elapsed the shown time in ns; summing frametime gives the run's duration back.
  const auto records = fifo_records(120);
  std::ostringstream out;
  auto sink = make_log_sink(LogFormat::mangohud, out, RunInfo{});
  for (const auto& r : records) sink->write(r);
  const auto l = lines(out.str());
  ASSERT_EQ(l.size(), 3 + records.size() - 1);
  double total = 0;
  for (std::size_t i = 1; i < records.size(); ++i) {
    const auto f = fields(l[3 + i - 1]);
    ASSERT_EQ(f.size(), 14u) << i;
    const double frametime = std::stod(f[1]);
    EXPECT_NEAR(frametime, to_ms(shown_time(records[i]) - shown_time(records[i - 1])), 1e-4) << i;
    EXPECT_NEAR(std::stod(f[0]), 1000.0 / frametime, 1e-2) << i;
    EXPECT_EQ(std::stoll(f[13]), shown_time(records[i]).count()) << i;
    total += frametime;
  }
  EXPECT_NEAR(total, to_ms(shown_time(records.back()) - shown_time(records.front())), 1e-4 * static_cast<double>(records.size()));
}

TEST(Exports, ChromeTraceMarksTheStuttersTheStatsCount) {
  // The trace's stutter instants follow the stats' rule exactly: same frames, same count.
  auto records = fifo_records(300);
  for (std::size_t i = 100; i < records.size(); ++i) *records[i].display += 80_ms;  // one 80 ms hitch
  // 10 frames on, a 34 ms one: over 2.5 x a running average that has let most of the first
  // hitch decay, not over 2.5 x the 20-frame mean that still holds all of it.
  for (std::size_t i = 110; i < records.size(); ++i) *records[i].display += 34_ms;
  std::ostringstream out;
  ChromeTraceWriter trace{out, RunInfo{}};
  for (const auto& r : records) trace.write(r);
  trace.finish();
  const std::string text = out.str();
  std::int64_t instants = 0;
  for (auto at = text.find("\"cat\":\"stutter\""); at != std::string::npos; at = text.find("\"cat\":\"stutter\"", at + 1))
    ++instants;
  const Summary s = summarize(records);
  EXPECT_GE(s.stutters, 1);
  EXPECT_EQ(instants, s.stutters);
}

// ---------------------------------------------------------------- JSON that always parses

namespace {
/// Names no JSON writer may break: quotes, backslashes, control bytes, a NUL, DEL, bytes that
/// are not UTF-8, a truncated UTF-8 sequence, and valid UTF-8 that must survive unchanged.
RunInfo hostile_info() {
  RunInfo info;
  info.application = std::string{"app \"x\"\\\n\t\x01\0nul\x7f", 16} + "\xff\xfe" + "caf\xc3\xa9" + "\xe2\x82";
  info.policy = "adaptive\r\n";
  info.device = "\xed\xa0\x80 surrogate";  // UTF-8 of a lone surrogate: invalid
  info.present_mode = "fifo";
  info.config = {{"load", "trace:a,b.csv"}, {"k\"", "v\x1f"}};
  info.measured = {{"waiter_waits", 3}, {"nan", std::numeric_limits<double>::quiet_NaN()},
                   {"inf", std::numeric_limits<double>::infinity()}};
  return info;
}
}  // namespace

TEST(Exports, ChromeTraceParsesWithAnyNames) {
  std::ostringstream out;
  ChromeTraceWriter trace{out, hostile_info()};
  auto records = worked_records(40);
  records[2].events = event_widen | event_stall_clamp;
  records[3].alpha = std::numeric_limits<double>::quiet_NaN();
  for (const auto& r : records) trace.write(r);
  trace.finish();
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j.at("otherData").at("policy"), "adaptive\r\n");
  const std::string app = j.at("otherData").at("application");
  EXPECT_EQ(app.substr(0, 16), std::string("app \"x\"\\\n\t\x01\0nul\x7f", 16));
  EXPECT_NE(app.find("caf\xc3\xa9"), std::string::npos) << "valid UTF-8 is kept";
  EXPECT_NE(app.find("\xef\xbf\xbd"), std::string::npos) << "invalid bytes become U+FFFD";
  std::size_t frames = 0;
  for (const auto& e : j.at("traceEvents"))
    if (e.at("name").get<std::string>().rfind("frame ", 0) == 0) ++frames;
  EXPECT_EQ(frames, records.size());
}

TEST(Exports, RunMetadataParsesWithAnyNamesAndNonFiniteNumbers) {
  std::ostringstream out;
  Summary summary = summarize(worked_records(40), {});
  summary.average_fps = std::numeric_limits<double>::infinity();
  summary.p1_fps = std::numeric_limits<double>::quiet_NaN();
  write_run_metadata(out, hostile_info(), &summary);
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j.at("config").at("load"), "trace:a,b.csv");
  EXPECT_EQ(j.at("config").at("k\""), "v\x1f");
  EXPECT_EQ(j.at("measured").at("waiter_waits"), 3.0);
  EXPECT_TRUE(j.at("measured").at("nan").is_null());
  EXPECT_TRUE(j.at("summary").at("average_fps").is_null());
  EXPECT_TRUE(j.at("summary").at("p1_fps").is_null());
  EXPECT_EQ(j.at("summary").at("frames"), 40.0);
  EXPECT_EQ(j.at("device"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd surrogate");
  // Without a summary, and with no config, still one valid object.
  std::ostringstream bare;
  write_run_metadata(bare, RunInfo{});
  EXPECT_TRUE(nlohmann::json::parse(bare.str()).at("config").empty());
}

TEST(Exports, ChromeTraceCutAtAnyRecordIsClosedByFinish) {
  // What the sample does on SIGINT: stop after any record, then finish(): always valid JSON.
  for (int n : {0, 1, 2, 7}) {
    std::ostringstream out;
    ChromeTraceWriter trace{out, RunInfo{}};
    for (const auto& r : worked_records(n)) trace.write(r);
    trace.finish();
    trace.finish();  // twice is harmless
    EXPECT_TRUE(nlohmann::json::accept(out.str())) << n << " records:\n" << out.str();
  }
}
