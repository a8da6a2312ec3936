// pacer/log_writer.hpp - the native pacing log (docs/log-format.md).
//
// One header line, then one row per rendered frame; times in milliseconds since
// the run start with nanosecond digits; NA where a value was not measured.
//
//   std::ofstream file{"run.csv"};
//   pacer::NativeLogWriter log{file};          // writes the header
//   log.write(record);                         // one row per FrameRecord
#pragma once

#include <cstdint>
#include <cstdio>
#include <ostream>
#include <span>
#include <sstream>
#include <vector>
#include <string>
#include <string_view>

#include "pacer/decimal.hpp"  // format_fixed: every log format and report writes its decimals with it
#include "pacer/pacer.hpp"

namespace pacer {

/// The native columns, in order (docs/log-format.md). The writer adds four more after
/// them: `load_ms` (the workload's render cost where known, else NA), `present_planned_ms`
/// (when the policy planned the present, NA for none), `present_issued_ms` (when the
/// present call was made, after any hold) and `ms_gpu` (the frame's GPU time from
/// timestamp queries, NA where not measured: the simulator, a null target).
std::span<const std::string_view> native_columns();

/// Milliseconds with six decimals (nanosecond resolution): 16 ms -> "16.000000".
std::string format_ms(Nanos t);

class NativeLogWriter {
 public:
  /// Writes the header line at once.
  explicit NativeLogWriter(std::ostream& out);
  /// One row, formatted whole and written in one call (a failing stream never gets half).
  void write(const FrameRecord& r);
  void flush() { out_.flush(); }

 private:
  std::ostream& out_;
};

/// One native row with its newline, as NativeLogWriter writes it.
std::string format_native_row(const FrameRecord& r);

/// An output file written in whole records, so a full disk never leaves a torn one:
///
///   pacer::RecordFile file{"run.csv", "log"};   // throws "cannot write log 'run.csv': <strerror>"
///   pacer::NativeLogWriter log{file.stream()};  // text goes to a staging buffer
///   file.commit();                              // after each whole record (the header too)
///   file.flush();                               // writes the committed records
///
/// The file is opened (so checked) at construction but keeps what it held until the first
/// flush(), which empties it and writes what was committed: an output that is never flushed
/// (a run that failed before its first frame) leaves an existing file as it was, and one it
/// created is removed again. When a write fails (ENOSPC, EFBIG, EIO) the file is cut back to
/// its last whole record (std::filesystem::resize_file) and flush() throws
/// std::runtime_error "writing 'run.csv' failed: No space left on device". Later calls do
/// nothing. Uncommitted text is never written.
class RecordFile {
 public:
  RecordFile(std::string path, std::string_view what);
  ~RecordFile();
  RecordFile(const RecordFile&) = delete;
  RecordFile& operator=(const RecordFile&) = delete;

  std::ostream& stream() { return staging_; }
  /// Marks the end of a whole record: what stream() holds becomes writable.
  void commit();
  void flush();
  /// Empties the file now, as the first flush() would: what it held is this run's from here
  /// on (files written together claim together, so a sidecar never outlives its log).
  void claim();
  /// Bytes on disk after the last successful flush (always a whole record boundary).
  std::uint64_t bytes_written() const { return written_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  std::ostringstream staging_;
  std::string committed_;
  std::vector<std::size_t> ends_;  ///< record ends inside committed_
  std::uint64_t written_ = 0;
  bool failed_ = false;
  bool existed_ = false;  ///< the file was there before: left as it was unless flushed
  bool started_ = false;  ///< flushed once: emptied, then written
};

}  // namespace pacer
