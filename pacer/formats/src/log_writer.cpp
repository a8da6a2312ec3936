#include "pacer/log_writer.hpp"

#include <array>
#include <cstdio>

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

std::string format_fixed(double value, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, value);
  return buf;
}

NativeLogWriter::NativeLogWriter(std::ostream& out) : out_{out} {
  bool first = true;
  for (auto c : native_columns()) {
    if (!first) out_ << ',';
    out_ << c;
    first = false;
  }
  // Appended after the native columns (design.md allows more, never reordered).
  out_ << ",load_ms,present_planned_ms,present_issued_ms\n";
}

void NativeLogWriter::write(const FrameRecord& r) {
  out_ << r.frame << ',' << r.policy << ',' << to_string(r.timing_source) << ',' << format_ms(r.cpu_start) << ','
       << format_ms(r.planned_start) << ',' << format_ms(r.interval) << ',' << format_ms(r.render) << ','
       << r.sim_steps << ',' << format_ms(r.update) << ',' << format_ms(r.pacer_wait) << ','
       << format_ms(r.present) << ',' << (r.display ? format_ms(*r.display) : std::string{"NA"}) << ','
       << format_ms(r.sim_previous) << ',' << format_ms(r.sim_current) << ',' << format_fixed(r.alpha, 6) << ','
       << format_ms(r.animation_time) << ',' << format_events(r.events) << ',' << format_ms(r.dropped) << ',';
  out_ << (r.load_ms ? format_fixed(*r.load_ms, 6) : std::string{"NA"}) << ','
       << (r.present_planned ? format_ms(*r.present_planned) : std::string{"NA"}) << ',' << format_ms(r.present_issued)
       << '\n';
}

}  // namespace pacer
