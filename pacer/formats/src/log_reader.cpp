#include "pacer/log_reader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "pacer/log_writer.hpp"

namespace pacer {

namespace {

/// The cells of a row into `cells` (reused from row to row).
void split_csv(const std::string& line, std::vector<std::string>& cells) {
  cells.clear();
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = line.find(',', start);
    cells.push_back(line.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) break;
    start = at + 1;
  }
  if (!cells.empty() && !cells.back().empty() && cells.back().back() == '\r') cells.back().pop_back();
}

/// A cell quoted in an error: at most 40 characters, control characters (a NUL) as '?'.
std::string quoted(const std::string& text) {
  std::string out = text.substr(0, 40);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20) c = '?';
  return "'" + out + (text.size() > 40 ? "...'" : "'");
}

/// A number cell; `column` and `where` (file:line: ) word the error.
double parse_number(const std::string& text, std::string_view column, const std::string& where) {
  const auto v = parse_finite_decimal(text);  // decimal only, as the writers write
  if (!v)
    throw LogParseError(where + "column " + std::string(column) + ": " + quoted(text) + " is not a number");
  return *v;
}

/// A time in ms: finite (parse_number), within +-max_log_ms, and >= 0 where `non_negative`.
double parse_time(const std::string& text, std::string_view column, const std::string& where, bool non_negative) {
  const double v = parse_number(text, column, where);
  if (non_negative && v < 0)
    throw LogParseError(where + "column " + std::string(column) + ": " + quoted(text) + " is negative");
  if (std::abs(v) > max_log_ms)
    throw LogParseError(where + "column " + std::string(column) + ": " + quoted(text) + " is beyond 1e9 ms");
  return v;
}

/// A torn row: thrown inside NativeLogReader::next, a warning if it is the last row.
struct TornRow : LogParseError {
  using LogParseError::LogParseError;
};

}  // namespace

NativeLogReader::NativeLogReader(std::istream& in, std::string_view source) : in_{in}, src_{source} {
  if (!std::getline(in_, line_)) throw LogParseError(src_ + ":1: empty log (no header line)");
  if (line_.rfind("\xEF\xBB\xBF", 0) == 0) line_.erase(0, 3);  // a UTF-8 byte order mark
  split_csv(line_, header_);
  // The other formats the samples write (--log-format): named, not read as a broken native log.
  const auto has = [&](std::string_view name) { return std::find(header_.begin(), header_.end(), name) != header_.end(); };
  if (has("msBetweenPresents") || has("MsBetweenPresents"))
    throw LogParseError(src_ + ":1: a PresentMon log; this reads native pacing logs (--log-format native)");
  if (line_.rfind("os,cpu,gpu", 0) == 0)
    throw LogParseError(src_ + ":1: a MangoHud log; this reads native pacing logs (--log-format native)");
  const auto wanted = native_columns();
  for (std::size_t c = 0; c < wanted.size(); ++c) {
    const auto it = std::find(header_.begin(), header_.end(), wanted[c]);
    if (it == header_.end()) throw LogParseError(src_ + ":1: missing column " + std::string(wanted[c]));
    col_[c] = static_cast<std::size_t>(it - header_.begin());
  }
  auto optional_col = [&](std::string_view name) {
    return static_cast<std::size_t>(std::find(header_.begin(), header_.end(), name) - header_.begin());
  };
  load_col_ = optional_col("load_ms");
  planned_col_ = optional_col("present_planned_ms");
  issued_col_ = optional_col("present_issued_ms");
  gpu_col_ = optional_col("ms_gpu");
}

bool NativeLogReader::next(FrameRecord& out) {
  if (done_) return false;
  const auto wanted = native_columns();
  const std::vector<std::string>& header = header_;
  std::vector<std::string>& cells = cells_;
  for (;;) {
    if (!std::getline(in_, line_)) {
      done_ = true;
      return false;
    }
    ++number_;
    if (!line_.empty() && line_ != "\r") break;
  }
  const bool unterminated = in_.eof();  // the file ends without this row's newline
  split_csv(line_, cells);
  const std::string where = src_ + ":" + std::to_string(number_) + ": ";
  try {
    if (cells.size() != header.size())
      throw TornRow(where + "expected " + std::to_string(header.size()) + " fields, found " +
                    std::to_string(cells.size()));
    if (unterminated) throw TornRow(where + "the row has no end of line");
  } catch (const TornRow& e) {
    // Only the last row of a file can be cut by a writer that stopped.
    bool last = true;
    for (std::string rest; std::getline(in_, rest);)
      if (!rest.empty() && rest != "\r") last = false;
    done_ = true;
    if (!last || cells.size() > header.size()) throw LogParseError(e.what());
    warnings_.push_back(where + "torn last row ignored (" +
                        std::string{std::string_view{e.what()}.substr(where.size())} + ")");
    return false;
  }
  auto cell = [&](std::size_t c) -> const std::string& { return cells[col_[c]]; };
  auto num = [&](std::size_t c) { return parse_number(cell(c), wanted[c], where); };
  auto time = [&](std::size_t c) { return parse_time(cell(c), wanted[c], where, false); };
  auto duration = [&](std::size_t c) { return parse_time(cell(c), wanted[c], where, true); };
  auto ms = [&](std::size_t c) { return from_ms(time(c)); };
  auto count = [&](std::size_t c) {
    const double v = num(c);
    if (v < 0 || v > 1e15 || v != std::floor(v))
      throw LogParseError(where + "column " + std::string(wanted[c]) + ": " + quoted(cell(c)) +
                          " is not a count (a whole number from 0 to 1e15)");
    return static_cast<std::int64_t>(v);
  };
  FrameRecord r;
  r.frame = count(0);
  if (last_frame_ && r.frame <= *last_frame_)
    throw LogParseError(where + "column frame: rows out of order (frame " + std::to_string(r.frame) + " after " +
                        std::to_string(*last_frame_) + ")");
  last_frame_ = r.frame;
  const std::string& policy = cell(1);
  auto known = std::find(policy_names_.begin(), policy_names_.end(), policy);
  if (known == policy_names_.end()) {
    policy_names_.push_back(policy);
    known = std::prev(policy_names_.end());
  }
  r.policy = *known;
  const auto source_kind = parse_timing_source(cell(2));
  if (!source_kind)
    throw LogParseError(where + "column timing_source: " + quoted(cell(2)) + " is not virtual, cpu or present_wait");
  r.timing_source = *source_kind;
  const double start = time(3);
  if (last_start_ && start < *last_start_)
    throw LogParseError(where + "column cpu_start_ms: rows out of order (" + cell(3) + " ms is before the previous row's " +
                        format_fixed(*last_start_, 6) + " ms)");
  last_start_ = start;
  r.cpu_start = from_ms(start);
  r.planned_start = ms(4);
  r.interval = from_ms(duration(5));
  r.render = from_ms(duration(6));
  r.sim_steps = count(7);
  r.update = from_ms(duration(8));
  r.pacer_wait = from_ms(duration(9));
  r.present = ms(10);
  if (cell(11) != "NA") r.display = ms(11);
  r.sim_previous = ms(12);
  r.sim_current = ms(13);
  r.alpha = num(14);
  r.animation_time = ms(15);
  const auto events = parse_events(cell(16));
  if (!events) throw LogParseError(where + "column interval_event: " + quoted(cell(16)) + " is not an event list");
  r.events = *events;
  r.dropped = from_ms(duration(17));
  if (load_col_ != header.size() && cells[load_col_] != "NA")
    r.load_ms = parse_time(cells[load_col_], "load_ms", where, true);
  if (planned_col_ != header.size() && cells[planned_col_] != "NA")
    r.present_planned = from_ms(parse_time(cells[planned_col_], "present_planned_ms", where, false));
  // Older logs have no issue time: the present call's return is the best they know.
  r.present_issued = issued_col_ != header.size() && cells[issued_col_] != "NA"
                         ? from_ms(parse_time(cells[issued_col_], "present_issued_ms", where, false))
                         : r.present;
  // Older logs have no GPU time: unknown, as NA says.
  if (gpu_col_ != header.size() && cells[gpu_col_] != "NA")
    r.gpu = from_ms(parse_time(cells[gpu_col_], "ms_gpu", where, true));
  out = r;
  return true;
}

NativeLog read_native_log(std::istream& in, std::string_view source) {
  NativeLogReader reader{in, source};
  NativeLog log;
  for (FrameRecord r; reader.next(r);) log.records.push_back(r);
  log.warnings = reader.warnings();
  log.policy_names = reader.take_policy_names();
  return log;
}

}  // namespace pacer
