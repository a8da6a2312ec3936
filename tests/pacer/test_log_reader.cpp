#include <gtest/gtest.h>

#include <limits>
#include <random>
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

TEST(LogReader, GpuTimeRoundTripsAndNaIsUnknown) {
  AdaptivePolicy p{AdaptiveConfig{}, FixedStepConfig{}};
  auto records = simulate(p, SimCosts::fixed(3_ms, 1_ms), 6).records;
  for (const auto& r : records) EXPECT_FALSE(r.gpu.has_value()) << "the simulator measures no GPU time";
  records[2].gpu = Nanos{1'234'567};
  const std::string text = write(records);
  EXPECT_NE(text.find(",1.234567\n"), std::string::npos) << "ms_gpu is the last column";
  std::istringstream in{text};
  const NativeLog log = read_native_log(in, "run.csv");
  ASSERT_EQ(log.records.size(), records.size());
  EXPECT_EQ(log.records[2].gpu, Nanos{1'234'567});
  EXPECT_FALSE(log.records[1].gpu.has_value());
  EXPECT_EQ(write(log.records), text);
}

TEST(LogReader, OlderLogsWithoutMsGpuStillRead) {
  const std::string header =
      "frame,policy,timing_source,cpu_start_ms,planned_start_ms,interval_ms,ms_render,sim_steps,ms_update,"
      "ms_pacer_wait,present_ms,display_ms,sim_prev_ms,sim_curr_ms,interp_alpha,animation_time_ms,interval_event,"
      "dropped_ms,load_ms,present_planned_ms,present_issued_ms\n";
  std::istringstream in{header + "0,adaptive,cpu,0,0,16,3,4,4,9,3,NA,0,0,1,0,none,0,NA,NA,3\n"};
  const NativeLog log = read_native_log(in, "old.csv");
  ASSERT_EQ(log.records.size(), 1u);
  EXPECT_FALSE(log.records[0].gpu.has_value());
  const std::string with_gpu = header.substr(0, header.size() - 1) + ",ms_gpu\n";
  EXPECT_EQ(error_of(with_gpu + "0,adaptive,cpu,0,0,16,3,4,4,9,3,NA,0,0,1,0,none,0,NA,NA,3,-1\n"),
            "run.csv:2: column ms_gpu: '-1' is negative");
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
  // A short row followed by more rows is not a torn end: an error.
  EXPECT_EQ(error_of(header + "1,adaptive,cpu,16\n" + good), "run.csv:2: expected 18 fields, found 4");
  EXPECT_EQ(error_of(header + good + "1,adaptive,cpu,16,16,16,3,4,4,9,3,NA,0,0,1,0,none,0,7\n"),
            "run.csv:3: expected 18 fields, found 19");
  EXPECT_EQ(error_of(header + "0,adaptive,cpu,0,0,16,3,4,4,9,3,NA,0,0,1,0,explode,0\n"),
            "run.csv:2: column interval_event: 'explode' is not an event list");
  EXPECT_EQ(error_of(header + good), "(no error)");
}

namespace {
const std::string kHeader =
    "frame,policy,timing_source,cpu_start_ms,planned_start_ms,interval_ms,ms_render,sim_steps,ms_update,"
    "ms_pacer_wait,present_ms,display_ms,sim_prev_ms,sim_curr_ms,interp_alpha,animation_time_ms,interval_event,"
    "dropped_ms\n";
/// A row at frame `f` starting at `start` ms, `column` (by index) replaced by `value` when given.
std::string row(int f, const std::string& start, int column = -1, const std::string& value = "") {
  std::vector<std::string> cells{std::to_string(f), "adaptive", "cpu", start, start, "16", "3", "4", "4",
                                 "9", start, "NA", "0", "0", "1", "0", "none", "0"};
  if (column >= 0) cells[static_cast<std::size_t>(column)] = value;
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + cells[i];
  return out + "\n";
}
NativeLog read(const std::string& text) {
  std::istringstream in{text};
  return read_native_log(in, "run.csv");
}
}  // namespace

TEST(LogReader, TornLastRowIsDroppedWithAWarning) {
  // Fewer fields (a writer stopped mid-row, the newline written later or never).
  const NativeLog cut = read(kHeader + row(0, "0") + row(1, "16") + "2,adaptive,cpu,32,32\n");
  EXPECT_EQ(cut.records.size(), 2u);
  ASSERT_EQ(cut.warnings.size(), 1u);
  EXPECT_EQ(cut.warnings[0], "run.csv:4: torn last row ignored (expected 18 fields, found 5)");
  // All fields but no newline: the last number may be cut short ("0" of "0.25").
  std::string whole = row(2, "32");
  whole.pop_back();
  const NativeLog unterminated = read(kHeader + row(0, "0") + row(1, "16") + whole);
  EXPECT_EQ(unterminated.records.size(), 2u);
  ASSERT_EQ(unterminated.warnings.size(), 1u);
  EXPECT_EQ(unterminated.warnings[0], "run.csv:4: torn last row ignored (the row has no end of line)");
  // Blank lines after the torn row do not make it a middle row.
  EXPECT_EQ(read(kHeader + row(0, "0") + "1,adap\n\n\n").warnings.size(), 1u);
  // A whole log has no warnings.
  EXPECT_TRUE(read(kHeader + row(0, "0") + row(1, "16")).warnings.empty());
}

TEST(LogReader, RowsOutOfOrderAreRefused) {
  EXPECT_EQ(error_of(kHeader + row(0, "0") + row(2, "16") + row(1, "32") + row(3, "48")),
            "run.csv:4: column frame: rows out of order (frame 1 after 2)");
  EXPECT_EQ(error_of(kHeader + row(0, "0") + row(0, "16")), "run.csv:3: column frame: rows out of order (frame 0 after 0)");
  EXPECT_EQ(error_of(kHeader + row(0, "16") + row(1, "15.5")),
            "run.csv:3: column cpu_start_ms: rows out of order (15.5 ms is before the previous row's 16.000000 ms)");
  EXPECT_EQ(error_of(kHeader + row(0, "16") + row(1, "16")), "(no error)") << "equal starts are allowed";
}

TEST(LogReader, ValuesThatCannotBeTimesNameTheColumn) {
  EXPECT_EQ(error_of(kHeader + row(0, "0", 10, "1e300") + row(1, "16")),
            "run.csv:2: column present_ms: '1e300' is beyond 1e9 ms");
  EXPECT_EQ(error_of(kHeader + row(0, "0", 3, "1e12") + row(1, "16")),
            "run.csv:2: column cpu_start_ms: '1e12' is beyond 1e9 ms");
  EXPECT_EQ(error_of(kHeader + row(0, "0", 6, "-3") + row(1, "16")), "run.csv:2: column ms_render: '-3' is negative");
  EXPECT_EQ(error_of(kHeader + row(0, "0", 5, "nan") + row(1, "16")),
            "run.csv:2: column interval_ms: 'nan' is not a number");
  EXPECT_EQ(error_of(kHeader + row(0, "0", 9, "inf") + row(1, "16")),
            "run.csv:2: column ms_pacer_wait: 'inf' is not a number");
  EXPECT_EQ(error_of(kHeader + row(0, "0", 0, "-1") + row(1, "16")),
            "run.csv:2: column frame: '-1' is not a count (a whole number from 0 to 1e15)");
  EXPECT_EQ(error_of(kHeader + row(0, "0", 7, "2.5") + row(1, "16")),
            "run.csv:2: column sim_steps: '2.5' is not a count (a whole number from 0 to 1e15)");
  // A NUL or other control byte does not cut the message; long cells are shortened.
  EXPECT_EQ(error_of(kHeader + row(0, "0", 6, std::string{"1\0x", 3}) + row(1, "16")),
            "run.csv:2: column ms_render: '1?x' is not a number");
  EXPECT_EQ(error_of(kHeader + row(0, "0", 6, std::string(100, '9') + "x") + row(1, "16")),
            "run.csv:2: column ms_render: '" + std::string(40, '9') + "...' is not a number");
  // The bound itself is a time.
  EXPECT_EQ(error_of(kHeader + row(0, "0", 10, "1000000000") + row(1, "16")), "(no error)");
}

TEST(LogReader, ByteOrderMarkBeforeTheHeaderIsSkipped) {
  const NativeLog log = read("\xEF\xBB\xBF" + kHeader + row(0, "0"));
  EXPECT_EQ(log.records.size(), 1u);
}

TEST(LogReader, RandomDamageIsAnErrorOrAWarningNeverACrash) {
  // A deterministic fuzz: bytes of a real log replaced, or the file cut, 3000 times. Every
  // result is a log (a torn end at most one warning) or one LogParseError line.
  AdaptivePolicy p{AdaptiveConfig{}, FixedStepConfig{}};
  const std::string text = write(simulate(p, SimCosts::fixed(3_ms, 1_ms), 20).records);
  std::mt19937 rng{1};
  const std::string alphabet{",.-+e9n\n\r\0xNA \xff", 16};
  int parsed = 0, refused = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string damaged = text;
    if (i % 3 == 0) {
      damaged.resize(std::uniform_int_distribution<std::size_t>{0, text.size()}(rng));
    } else {
      for (int k = 0; k < 1 + i % 4; ++k)
        damaged[std::uniform_int_distribution<std::size_t>{0, text.size() - 1}(rng)] =
            alphabet[std::uniform_int_distribution<std::size_t>{0, alphabet.size() - 1}(rng)];
    }
    std::istringstream in{damaged};
    try {
      const NativeLog log = read_native_log(in, "run.csv");
      EXPECT_LE(log.records.size(), 20u);
      EXPECT_LE(log.warnings.size(), 1u);
      ++parsed;
    } catch (const LogParseError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      EXPECT_EQ(what.rfind("run.csv:", 0), 0u) << what;
      ++refused;
    }
  }
  EXPECT_GT(parsed, 100);
  EXPECT_GT(refused, 100);
}

// NativeLogReader: the streaming parser read_native_log runs on, a row at a time.

TEST(NativeLogReader, GivesTheRecordsOfTheWholeLogReader) {
  AdaptiveConfig cfg;
  cfg.initial_interval = 16_ms;
  FixedStepConfig sim;
  sim.step = 5_ms;
  sim.max_steps_per_frame = 2;
  AdaptivePolicy p{cfg, sim};
  auto records = simulate(p, SimCosts::fixed(3_ms, 1_ms), 200).records;
  records[3].display = records[3].present + 1_ms;
  records[7].present_planned = records[7].present - 2_ms;
  records[9].load_ms = 4.25;
  const std::string text = write(records);
  std::istringstream whole_in{text};
  const NativeLog whole = read_native_log(whole_in, "run.csv");
  std::istringstream in{text};
  NativeLogReader reader{in, "run.csv"};
  std::vector<FrameRecord> streamed;
  for (FrameRecord r; reader.next(r);) streamed.push_back(r);
  EXPECT_FALSE(reader.next(*streamed.begin())) << "the end stays the end";
  ASSERT_EQ(streamed.size(), whole.records.size());
  EXPECT_EQ(write(streamed), write(whole.records));
  EXPECT_EQ(write(streamed), text);
  for (std::size_t i = 0; i < streamed.size(); ++i) EXPECT_EQ(streamed[i].policy, whole.records[i].policy) << i;
  EXPECT_TRUE(reader.warnings().empty());
  // The policy views stay valid after the names are taken (read_native_log keeps them so).
  const auto names = reader.take_policy_names();
  ASSERT_EQ(names.size(), 1u);
  EXPECT_EQ(streamed.back().policy.data(), names.front().data());
}

TEST(NativeLogReader, HeaderErrorsComeFromTheConstructor) {
  std::istringstream empty{""};
  EXPECT_THROW(NativeLogReader(empty, "run.csv"), LogParseError);
  std::istringstream missing{"frame,policy\n"};
  try {
    NativeLogReader reader{missing, "run.csv"};
    ADD_FAILURE() << "no error";
  } catch (const LogParseError& e) {
    EXPECT_STREQ(e.what(), "run.csv:1: missing column timing_source");
  }
  std::istringstream bom{"\xEF\xBB\xBF" + kHeader + row(0, "0")};
  NativeLogReader reader{bom, "run.csv"};
  FrameRecord r;
  EXPECT_TRUE(reader.next(r));
  EXPECT_FALSE(reader.next(r));
}

TEST(NativeLogReader, TornLastRowEndsTheLogWithAWarning) {
  std::istringstream in{kHeader + row(0, "0") + row(1, "16") + "\n2,adaptive,cpu,32,32\n\n"};
  NativeLogReader reader{in, "run.csv"};
  FrameRecord r;
  ASSERT_TRUE(reader.next(r));
  EXPECT_EQ(r.frame, 0);
  ASSERT_TRUE(reader.next(r));
  EXPECT_EQ(r.frame, 1);
  EXPECT_TRUE(reader.warnings().empty());
  EXPECT_FALSE(reader.next(r));
  ASSERT_EQ(reader.warnings().size(), 1u);
  EXPECT_EQ(reader.warnings()[0], "run.csv:5: torn last row ignored (expected 18 fields, found 5)");
  EXPECT_FALSE(reader.next(r));
  EXPECT_EQ(reader.warnings().size(), 1u);
}

TEST(NativeLogReader, RowsOutOfOrderAreRefusedAtTheirRow) {
  std::istringstream in{kHeader + row(0, "0") + row(2, "16") + row(1, "32") + row(3, "48")};
  NativeLogReader reader{in, "run.csv"};
  FrameRecord r;
  ASSERT_TRUE(reader.next(r));
  ASSERT_TRUE(reader.next(r));
  try {
    reader.next(r);
    ADD_FAILURE() << "no error";
  } catch (const LogParseError& e) {
    EXPECT_STREQ(e.what(), "run.csv:4: column frame: rows out of order (frame 1 after 2)");
  }
  std::istringstream back{kHeader + row(0, "16") + row(1, "15.5")};
  NativeLogReader later{back, "run.csv"};
  ASSERT_TRUE(later.next(r));
  EXPECT_THROW(later.next(r), LogParseError);
  // A short row in the middle is an error too, not a torn end.
  std::istringstream middle{kHeader + row(0, "0") + "1,adaptive,cpu,16\n" + row(2, "32")};
  NativeLogReader cut{middle, "run.csv"};
  ASSERT_TRUE(cut.next(r));
  try {
    cut.next(r);
    ADD_FAILURE() << "no error";
  } catch (const LogParseError& e) {
    EXPECT_STREQ(e.what(), "run.csv:3: expected 18 fields, found 4");
  }
}
