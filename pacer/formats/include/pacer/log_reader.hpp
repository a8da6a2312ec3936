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
};

/// Parses a native log (the 18 columns of docs/log-format.md, found by name; extra columns
/// are ignored). NativeLog must outlive the records' policy views.
NativeLog read_native_log(std::istream& in, std::string_view source);

}  // namespace pacer
