#include "pacer/log_reader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

#include "pacer/log_writer.hpp"

namespace pacer {

namespace {

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = line.find(',', start);
    cells.push_back(line.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) break;
    start = at + 1;
  }
  if (!cells.empty() && !cells.back().empty() && cells.back().back() == '\r') cells.back().pop_back();
  return cells;
}

/// A number cell; `column` and `where` (file:line: ) word the error.
double parse_number(const std::string& text, std::string_view column, const std::string& where) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    throw LogParseError(where + "column " + std::string(column) + ": '" + text + "' is not a number");
  return v;
}

}  // namespace

NativeLog read_native_log(std::istream& in, std::string_view source) {
  NativeLog log;
  const std::string src{source};
  std::string line;
  if (!std::getline(in, line)) throw LogParseError(src + ":1: empty log (no header line)");
  const auto header = split_csv(line);
  std::array<std::size_t, 18> col{};
  const auto wanted = native_columns();
  for (std::size_t c = 0; c < wanted.size(); ++c) {
    const auto it = std::find(header.begin(), header.end(), wanted[c]);
    if (it == header.end()) throw LogParseError(src + ":1: missing column " + std::string(wanted[c]));
    col[c] = static_cast<std::size_t>(it - header.begin());
  }
  auto optional_col = [&](std::string_view name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  const std::size_t load_col = optional_col("load_ms");
  const std::size_t planned_col = optional_col("present_planned_ms");
  const std::size_t issued_col = optional_col("present_issued_ms");
  for (std::size_t number = 2; std::getline(in, line); ++number) {
    if (line.empty() || line == "\r") continue;
    const auto cells = split_csv(line);
    const std::string where = src + ":" + std::to_string(number) + ": ";
    if (cells.size() != header.size())
      throw LogParseError(where + "expected " + std::to_string(header.size()) + " fields, found " +
                          std::to_string(cells.size()));
    auto cell = [&](std::size_t c) -> const std::string& { return cells[col[c]]; };
    auto num = [&](std::size_t c) { return parse_number(cell(c), wanted[c], where); };
    auto ms = [&](std::size_t c) { return from_ms(num(c)); };
    FrameRecord r;
    r.frame = static_cast<std::int64_t>(num(0));
    const std::string& policy = cell(1);
    auto known = std::find(log.policy_names.begin(), log.policy_names.end(), policy);
    if (known == log.policy_names.end()) {
      log.policy_names.push_back(policy);
      known = std::prev(log.policy_names.end());
    }
    r.policy = *known;
    const auto source_kind = parse_timing_source(cell(2));
    if (!source_kind)
      throw LogParseError(where + "column timing_source: '" + cell(2) + "' is not virtual, cpu or present_wait");
    r.timing_source = *source_kind;
    r.cpu_start = ms(3);
    r.planned_start = ms(4);
    r.interval = ms(5);
    r.render = ms(6);
    r.sim_steps = static_cast<std::int64_t>(num(7));
    r.update = ms(8);
    r.pacer_wait = ms(9);
    r.present = ms(10);
    if (cell(11) != "NA") r.display = ms(11);
    r.sim_previous = ms(12);
    r.sim_current = ms(13);
    r.alpha = num(14);
    r.animation_time = ms(15);
    const auto events = parse_events(cell(16));
    if (!events) throw LogParseError(where + "column interval_event: '" + cell(16) + "' is not an event list");
    r.events = *events;
    r.dropped = ms(17);
    if (load_col != header.size() && cells[load_col] != "NA") r.load_ms = parse_number(cells[load_col], "load_ms", where);
    if (planned_col != header.size() && cells[planned_col] != "NA")
      r.present_planned = from_ms(parse_number(cells[planned_col], "present_planned_ms", where));
    // Older logs have no issue time: the present call's return is the best they know.
    r.present_issued = issued_col != header.size() && cells[issued_col] != "NA"
                           ? from_ms(parse_number(cells[issued_col], "present_issued_ms", where))
                           : r.present;
    log.records.push_back(r);
  }
  return log;
}

}  // namespace pacer
