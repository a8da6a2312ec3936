#include "pacer/log_writer.hpp"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace pacer {

std::span<const std::string_view> native_columns() {
  static constexpr std::array<std::string_view, 18> columns{
      "frame",       "policy",       "timing_source",  "cpu_start_ms", "planned_start_ms", "interval_ms",
      "ms_render",   "sim_steps",    "ms_update",      "ms_pacer_wait", "present_ms",      "display_ms",
      "sim_prev_ms", "sim_curr_ms",  "interp_alpha",   "animation_time_ms", "interval_event", "dropped_ms"};
  return columns;
}

std::string format_ms(Nanos t) {
  const std::int64_t ns = t.count();
  const std::int64_t abs = ns < 0 ? -ns : ns;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%lld.%06lld", ns < 0 ? "-" : "", static_cast<long long>(abs / 1'000'000),
                static_cast<long long>(abs % 1'000'000));
  return buf;
}

NativeLogWriter::NativeLogWriter(std::ostream& out) : out_{out} {
  bool first = true;
  for (auto c : native_columns()) {
    if (!first) out_ << ',';
    out_ << c;
    first = false;
  }
  // Appended after the native columns (docs/log-format.md: appended, never reordered).
  out_ << ",load_ms,present_planned_ms,present_issued_ms,ms_gpu\n";
}

std::string format_native_row(const FrameRecord& r) {
  std::string row;
  row.reserve(256);
  row += std::to_string(r.frame);
  row += ',';
  row += r.policy;
  row += ',';
  row += to_string(r.timing_source);
  for (const Nanos t : {r.cpu_start, r.planned_start, r.interval, r.render}) (row += ',') += format_ms(t);
  (row += ',') += std::to_string(r.sim_steps);
  for (const Nanos t : {r.update, r.pacer_wait, r.present}) (row += ',') += format_ms(t);
  (row += ',') += r.display ? format_ms(*r.display) : std::string{"NA"};
  (row += ',') += format_ms(r.sim_previous);
  (row += ',') += format_ms(r.sim_current);
  (row += ',') += format_fixed(r.alpha, 6);
  (row += ',') += format_ms(r.animation_time);
  (row += ',') += format_events(r.events);
  (row += ',') += format_ms(r.dropped);
  (row += ',') += r.load_ms ? format_fixed(*r.load_ms, 6) : std::string{"NA"};
  (row += ',') += r.present_planned ? format_ms(*r.present_planned) : std::string{"NA"};
  (row += ',') += format_ms(r.present_issued);
  (row += ',') += r.gpu ? format_ms(*r.gpu) : std::string{"NA"};
  row += '\n';
  return row;
}

void NativeLogWriter::write(const FrameRecord& r) {
  const std::string row = format_native_row(r);
  out_.write(row.data(), static_cast<std::streamsize>(row.size()));
}

// ---------------------------------------------------------------- RecordFile

RecordFile::RecordFile(std::string path, std::string_view what) : path_{std::move(path)} {
  if (path_.empty()) throw std::runtime_error("cannot write " + std::string{what} + ": the file name is empty");
  std::error_code ec;
  if (std::filesystem::is_directory(path_, ec))
    throw std::runtime_error("cannot write " + std::string{what} + " '" + path_ + "': Is a directory");
  existed_ = std::filesystem::exists(path_, ec);
  errno = 0;
  // Checked and created now, emptied at the first flush. Close-on-exec where the C library
  // takes glibc's 'e': a process the host starts during the run (a crash reporter, an
  // encoder) does not inherit the log.
#if defined(__GLIBC__)
  file_ = std::fopen(path_.c_str(), "abe");
#else
  file_ = std::fopen(path_.c_str(), "ab");
#endif
  if (!file_) {
    const int err = errno;
    throw std::runtime_error("cannot write " + std::string{what} + " '" + path_ +
                             "': " + (err != 0 ? std::strerror(err) : "cannot open"));
  }
  std::setvbuf(file_, nullptr, _IONBF, 0);  // RecordFile batches; fwrite goes straight to the file
}

RecordFile::~RecordFile() {
  if (file_) std::fclose(file_);
  std::error_code ec;
  if (!started_ && !existed_) std::filesystem::remove(path_, ec);  // created here, never written
}

void RecordFile::commit() {
  std::string text = staging_.str();
  if (text.empty()) return;
  staging_.str({});
  if (failed_) return;
  committed_ += text;
  ends_.push_back(committed_.size());
}

void RecordFile::claim() {
  if (failed_ || started_) return;
  // What the file held is replaced from here on (appends go to the new end).
  std::error_code ec;
  if (existed_ && std::filesystem::is_regular_file(path_, ec) && std::filesystem::file_size(path_, ec) > 0 && !ec)
    std::filesystem::resize_file(path_, 0, ec);  // not a device (/dev/full, /dev/null)
  if (ec) {
    failed_ = true;
    throw std::runtime_error("writing '" + path_ + "' failed: " + ec.message());
  }
  started_ = true;
}

void RecordFile::flush() {
  if (failed_) return;
  claim();
  if (committed_.empty()) return;
  errno = 0;
  const std::size_t done = std::fwrite(committed_.data(), 1, committed_.size(), file_);
  if (done == committed_.size()) {
    written_ += done;
    committed_.clear();
    ends_.clear();
    return;
  }
  const int err = errno;
  failed_ = true;
  // Keep the whole records that reached the file, cut the torn one.
  std::size_t whole = 0;
  for (const std::size_t end : ends_)
    if (end <= done) whole = end;
  written_ += whole;
  committed_.clear();
  ends_.clear();
  std::error_code ec;
  std::filesystem::resize_file(path_, written_, ec);
  throw std::runtime_error("writing '" + path_ + "' failed: " + (err != 0 ? std::strerror(err) : "short write"));
}

}  // namespace pacer
