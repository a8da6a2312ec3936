#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
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
            "interval_event,dropped_ms,load_ms,present_planned_ms,present_issued_ms,ms_gpu\n");
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
            "0.000000,0.000000,1.000000,0.000000,none,0.000000,3.000000,NA,3.000000,NA");
  EXPECT_EQ(row1,
            "1,adaptive,virtual,16.000000,16.000000,16.000000,3.000000,0,0.000000,0.000000,19.000000,NA,"
            "15.000000,20.000000,0.200000,16.000000,none,0.000000,3.000000,NA,19.000000,NA");
}

TEST(NativeLog, MillisecondsKeepNanosecondDigits) {
  EXPECT_EQ(format_ms(Nanos{1}), "0.000001");
  EXPECT_EQ(format_ms(Nanos{16'666'667}), "16.666667");
  EXPECT_EQ(format_ms(Nanos{-1'500'000}), "-1.500000");
  EXPECT_EQ(format_events(event_widen | event_step_cap), "widen;step_cap");
  EXPECT_EQ(format_events(event_none), "none");
}

// ---------------------------------------------------------------- RecordFile: never a torn row

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  return {std::istreambuf_iterator<char>{in}, {}};
}

/// Writes rows of `run` through a RecordFile flushed every `per_flush` rows; returns the
/// error of the first failed flush ("" when none).
std::string write_rows(RecordFile& file, const SimRun& run, std::size_t per_flush) {
  try {
    NativeLogWriter w{file.stream()};
    file.commit();
    std::size_t n = 0;
    for (const auto& r : run.records) {
      w.write(r);
      file.commit();
      if (++n % per_flush == 0) file.flush();
    }
    file.flush();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST(RecordFile, WritesCommittedRowsOnly) {
  const std::string path = ::testing::TempDir() + "record_file_rows.csv";
  {
    RecordFile f{path, "log"};
    f.stream() << "a,b\n";
    f.commit();
    f.stream() << "1,2\n";
    f.commit();
    f.stream() << "3,";  // never committed: never written
    f.flush();
    EXPECT_EQ(f.bytes_written(), 8u);
  }
  EXPECT_EQ(read_all(path), "a,b\n1,2\n");
}

TEST(RecordFile, AProcessTheHostStartsDoesNotInheritTheFile) {
#if defined(__linux__) && defined(__GLIBC__)
  // The descriptor open on the file is close-on-exec (O_CLOEXEC, 02000000 in fdinfo's octal flags).
  const std::string path = ::testing::TempDir() + "record_file_cloexec.csv";
  RecordFile f{path, "log"};
  const auto target = std::filesystem::weakly_canonical(path);
  bool found = false;
  for (const auto& fd : std::filesystem::directory_iterator{"/proc/self/fd"}) {
    std::error_code ec;
    if (std::filesystem::read_symlink(fd.path(), ec) != target || ec) continue;
    std::ifstream info{"/proc/self/fdinfo/" + fd.path().filename().string()};
    std::string key, flags;
    while (info >> key >> flags && key != "flags:") {}
    ASSERT_EQ(key, "flags:");
    EXPECT_NE(std::stoul(flags, nullptr, 8) & 02000000UL, 0UL) << "flags " << flags;
    found = true;
  }
  EXPECT_TRUE(found) << "no descriptor open on " << path;
#else
  GTEST_SKIP() << "checked where glibc's fopen takes 'e'";
#endif
}

TEST(RecordFile, AnExistingFileIsKeptUntilTheFirstFlush) {
  // Opened (checked) before a run, a file keeps what it held until the run writes: a run
  // that fails before its first frame (no display, no device) loses no earlier log.
  const std::string path = ::testing::TempDir() + "record_file_kept.csv";
  { std::ofstream{path} << "an earlier run\n"; }
  {
    RecordFile f{path, "log"};
    f.stream() << "never flushed\n";
    f.commit();
  }
  EXPECT_EQ(read_all(path), "an earlier run\n");
  {
    RecordFile f{path, "log"};
    f.stream() << "x\n";
    f.commit();
    f.flush();
  }
  EXPECT_EQ(read_all(path), "x\n") << "the first flush replaces it";
}

TEST(RecordFile, AFileItCreatedAndNeverFlushedIsRemoved) {
  const std::string path = ::testing::TempDir() + "record_file_created.csv";
  std::filesystem::remove(path);
  { RecordFile f{path, "log"}; }
  EXPECT_FALSE(std::filesystem::exists(path));
  {
    RecordFile f{path, "log"};
    f.flush();  // flushed with nothing committed: an empty output, kept
  }
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_EQ(read_all(path), "");
}

TEST(RecordFile, FullDiskNamesTheCause) {
  RecordFile f{"/dev/full", "log"};
  f.stream() << "frame\n";
  f.commit();
  try {
    f.flush();
    FAIL() << "a write to /dev/full succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "writing '/dev/full' failed: No space left on device");
  }
  EXPECT_NO_THROW(f.flush()) << "later flushes do nothing";
}

TEST(RecordFile, OpenFailuresNameTheCause) {
  auto message = [](const std::string& path) {
    try {
      RecordFile f{path, "log"};
    } catch (const std::runtime_error& e) {
      return std::string{e.what()};
    }
    return std::string{"opened"};
  };
  EXPECT_EQ(message("/nonexistent-dir/run.csv"), "cannot write log '/nonexistent-dir/run.csv': No such file or directory");
  EXPECT_EQ(message("."), "cannot write log '.': Is a directory");
  EXPECT_EQ(message(""), "cannot write log: the file name is empty");
}

TEST(RecordFile, AFileSizeLimitCutsBackToTheLastWholeRow) {
  // The disk-full case with a real file: RLIMIT_FSIZE makes write() fail with EFBIG part way
  // through a flush; the file must end at a whole row.
  AdaptivePolicy p = seed_pacer();
  const SimRun run = simulate(p, SimCosts::fixed(3_ms, 1_ms), 400);
  const std::string path = ::testing::TempDir() + "record_file_limit.csv";
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old;
  small.rlim_cur = 10'000;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string error;
  std::uint64_t written = 0;
  {
    RecordFile f{path, "log"};
    error = write_rows(f, run, 7);
    written = f.bytes_written();
  }
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(error, "writing '" + path + "' failed: File too large");
  const std::string text = read_all(path);
  EXPECT_EQ(text.size(), written);
  ASSERT_GT(text.size(), 1000u);
  EXPECT_LE(text.size(), 10'000u);
  EXPECT_EQ(text.back(), '\n') << "the last row is whole";
  // Every row has all the fields.
  std::istringstream lines{text};
  std::size_t rows = 0;
  for (std::string line; std::getline(lines, line); ++rows) EXPECT_EQ(std::count(line.begin(), line.end(), ','), 21) << line;
  EXPECT_GT(rows, 10u);
}
