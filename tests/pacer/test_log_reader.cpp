#include <gtest/gtest.h>

#include <sstream>

#include "pacer/adaptive.hpp"
#include "pacer/log_reader.hpp"
#include "pacer/log_writer.hpp"
#include "pacer/simulator.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {
std::string write(const std::vector<FrameRecord>& records) {
  std::ostringstream out;
  NativeLogWriter w{out};
  for (const auto& r : records) w.write(r);
  return out.str();
}
std::string error_of(const std::string& text) {
  std::istringstream in{text};
  try {
    read_native_log(in, "run.csv");
  } catch (const LogParseError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST(LogReader, RoundTripIsExact) {
  AdaptiveConfig cfg;
  cfg.initial_interval = 16_ms;
  FixedStepConfig sim;
  sim.step = 5_ms;
  sim.max_steps_per_frame = 2;  // step_cap events and dropped time in the log
  AdaptivePolicy p{cfg, sim};
  auto records = simulate(p, SimCosts::fixed(3_ms, 1_ms), 40).records;
  records[3].display = records[3].present + 1_ms;
  const std::string text = write(records);
  std::istringstream in{text};
  const NativeLog log = read_native_log(in, "run.csv");
  ASSERT_EQ(log.records.size(), records.size());
  EXPECT_EQ(write(log.records), text);
  EXPECT_EQ(log.records[3].display, records[3].present + 1_ms);
  EXPECT_EQ(log.records[5].events, records[5].events);
}

TEST(LogReader, MalformedLogsNameLineAndColumn) {
  const std::string header =
      "frame,policy,timing_source,cpu_start_ms,planned_start_ms,interval_ms,ms_render,sim_steps,ms_update,"
      "ms_pacer_wait,present_ms,display_ms,sim_prev_ms,sim_curr_ms,interp_alpha,animation_time_ms,interval_event,"
      "dropped_ms\n";
  const std::string good = "0,adaptive,cpu,0,0,16,3,4,4,9,3,NA,0,0,1,0,none,0\n";
  EXPECT_EQ(error_of(""), "run.csv:1: empty log (no header line)");
  EXPECT_EQ(error_of("frame,policy\n"), "run.csv:1: missing column timing_source");
  EXPECT_EQ(error_of(header + good + "1,adaptive,cpu,16,16,abc,3,4,4,9,3,NA,0,0,1,0,none,0\n"),
            "run.csv:3: column interval_ms: 'abc' is not a number");
  EXPECT_EQ(error_of(header + "1,adaptive,cpu,16\n"), "run.csv:2: expected 18 fields, found 4");
  EXPECT_EQ(error_of(header + "0,adaptive,cpu,0,0,16,3,4,4,9,3,NA,0,0,1,0,explode,0\n"),
            "run.csv:2: column interval_event: 'explode' is not an event list");
  EXPECT_EQ(error_of(header + good), "(no error)");
}
