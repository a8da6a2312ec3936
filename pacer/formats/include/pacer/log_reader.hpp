// pacer/log_reader.hpp - reads the native pacing log back into frame records.
//
//   std::ifstream in{"run.csv"};
//   pacer::NativeLog log = pacer::read_native_log(in, "run.csv");   // throws LogParseError
//   pacer::Summary s = pacer::summarize(log.records);              // pacer/stats.hpp
//
// Streaming, in memory that does not grow with the log (one row at a time):
//
//   std::ifstream in{"run.csv"};
//   pacer::NativeLogReader reader{in, "run.csv"};   // reads the header; throws LogParseError
//   pacer::SummaryBuilder b;
//   for (pacer::FrameRecord r; reader.next(r);) b.add(r);
//   for (const auto& w : reader.warnings()) std::fprintf(stderr, "%s\n", w.c_str());
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include <deque>
#include <istream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pacer/pacer.hpp"

namespace pacer {

/// A malformed log; what() is one line: "FILE:LINE: column NAME: 'abc' is not a number".
class LogParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct NativeLog {
  std::deque<std::string> policy_names;  ///< owns the names FrameRecord::policy points at
  std::vector<FrameRecord> records;
  /// What was read but not kept, one line each ("run.csv:412: torn last row ignored
  /// (expected 21 fields, found 7)"): a tool prints them on stderr.
  std::vector<std::string> warnings;
};

/// The largest time a log may hold, in ms (1e9 ms = 11.6 days): anything beyond is an error.
inline constexpr double max_log_ms = 1e9;

/// Parses a native log (the 18 columns of docs/log-format.md, found by name; extra columns
/// are ignored). NativeLog must outlive the records' policy views.
///
/// A LAST row that was cut (fewer fields than the header, or a file that ends without its
/// newline - a writer stopped mid-row) is dropped with a warning. Everything else is an
/// error naming file:line and column: a value that is not a finite number, a duration
/// (interval, render, update, wait, dropped, steps) or a frame number below 0, a time beyond
/// +-max_log_ms, frame numbers that do not increase, cpu_start_ms going backwards.
/// read_native_log reads every record with NativeLogReader.
NativeLog read_native_log(std::istream& in, std::string_view source);

/// The parser of read_native_log, a row at a time: the same checks, messages and warnings.
/// It holds the header, the current row and one string per distinct policy name (one in the
/// logs the tools write), so its memory does not grow with the number of frames.
class NativeLogReader {
 public:
  /// Reads and checks the header (a UTF-8 byte order mark before it is skipped); throws
  /// LogParseError. `in` must outlive the reader.
  NativeLogReader(std::istream& in, std::string_view source);

  /// The next record into `r`: false at the end of the log (a torn last row is dropped and
  /// adds a warning). Throws LogParseError on a malformed row. r.policy points at a name the
  /// reader owns: valid while the reader lives (or, after take_policy_names, while the deque does).
  bool next(FrameRecord& r);

  /// What was read but not kept, one line each (see NativeLog::warnings).
  const std::vector<std::string>& warnings() const { return warnings_; }
  /// The names the records' policy views point at, moved out (a deque keeps them in place).
  std::deque<std::string> take_policy_names() { return std::move(policy_names_); }

 private:
  std::istream& in_;
  std::string src_;
  std::vector<std::string> header_;
  std::array<std::size_t, 18> col_{};
  std::size_t load_col_ = 0, planned_col_ = 0, issued_col_ = 0, gpu_col_ = 0;
  std::optional<double> last_start_;
  std::optional<std::int64_t> last_frame_;
  std::size_t number_ = 1;
  bool done_ = false;
  std::string line_;
  std::vector<std::string> cells_;
  std::deque<std::string> policy_names_;
  std::vector<std::string> warnings_;
};

}  // namespace pacer
