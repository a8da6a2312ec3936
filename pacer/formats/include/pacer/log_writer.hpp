// pacer/log_writer.hpp - the native pacing log (docs/log-format.md).
//
// One header line, then one row per rendered frame; times in milliseconds since
// the run start with nanosecond digits; NA where a value was not measured.
//
//   std::ofstream file{"run.csv"};
//   pacer::NativeLogWriter log{file};          // writes the header
//   log.write(record);                         // one row per FrameRecord
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "pacer/pacer.hpp"

namespace pacer {

/// The native columns, in order (docs/log-format.md). The writer adds three more after
/// them: `load_ms` (the workload's render cost where known, else NA), `present_planned_ms`
/// (when the policy planned the present, NA for none) and `present_issued_ms` (when the
/// present call was made, after any hold).
std::span<const std::string_view> native_columns();

/// Milliseconds with six decimals (nanosecond resolution): 16 ms -> "16.000000".
std::string format_ms(Nanos t);

/// A number with `digits` decimals ("%.*f"): 0.5, 6 -> "0.500000". Every log format and
/// report writes its decimals with it.
std::string format_fixed(double value, int digits);

class NativeLogWriter {
 public:
  /// Writes the header line at once.
  explicit NativeLogWriter(std::ostream& out);
  void write(const FrameRecord& r);
  void flush() { out_.flush(); }

 private:
  std::ostream& out_;
};

}  // namespace pacer
