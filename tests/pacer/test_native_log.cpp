#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "pacer/adaptive.hpp"
#include "pacer/log_writer.hpp"
#include "pacer/simulator.hpp"
#include "configs.hpp"

using namespace pacer;
using namespace pacer::literals;

TEST(NativeLog, HeaderHasTheDesignColumnsInOrderThenLoad) {
  std::ostringstream out;
  NativeLogWriter w{out};
  EXPECT_EQ(out.str(),
            "frame,policy,timing_source,cpu_start_ms,planned_start_ms,interval_ms,ms_render,sim_steps,ms_update,"
            "ms_pacer_wait,present_ms,display_ms,sim_prev_ms,sim_curr_ms,interp_alpha,animation_time_ms,"
            "interval_event,dropped_ms,load_ms,present_planned_ms,present_issued_ms\n");
}

TEST(NativeLog, RowsOfTheWorkedTimeline) {
  AdaptivePolicy p = seed_pacer();
  const SimRun run = simulate(p, SimCosts::fixed(3_ms, 1_ms), 2);
  std::ostringstream out;
  NativeLogWriter w{out};
  for (const auto& r : run.records) w.write(r);
  std::istringstream lines{out.str()};
  std::string header, row0, row1;
  std::getline(lines, header);
  std::getline(lines, row0);
  std::getline(lines, row1);
  EXPECT_EQ(row0,
            "0,adaptive,virtual,0.000000,0.000000,16.000000,3.000000,4,4.000000,9.000000,3.000000,NA,"
            "0.000000,0.000000,1.000000,0.000000,none,0.000000,3.000000,NA,3.000000");
  EXPECT_EQ(row1,
            "1,adaptive,virtual,16.000000,16.000000,16.000000,3.000000,0,0.000000,0.000000,19.000000,NA,"
            "15.000000,20.000000,0.200000,16.000000,none,0.000000,3.000000,NA,19.000000");
}

TEST(NativeLog, MillisecondsKeepNanosecondDigits) {
  EXPECT_EQ(format_ms(Nanos{1}), "0.000001");
  EXPECT_EQ(format_ms(Nanos{16'666'667}), "16.666667");
  EXPECT_EQ(format_ms(Nanos{-1'500'000}), "-1.500000");
  EXPECT_EQ(format_events(event_widen | event_step_cap), "widen;step_cap");
  EXPECT_EQ(format_events(event_none), "none");
}
