// pacer/log_reader.hpp - reads the native pacing log back into frame records.
//
//   std::ifstream in{"run.csv"};
//   pacer::NativeLog log = pacer::read_native_log(in, "run.csv");   // throws LogParseError
//   pacer::Summary s = pacer::summarize(log.records);
#pragma once

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
NativeLog read_native_log(std::istream& in, std::string_view source);

}  // namespace pacer
