#include "pacer/exports.hpp"

#include <cmath>
#include <filesystem>
#include <cstdio>

#include "pacer/log_writer.hpp"
#include "pacer/stats.hpp"

namespace pacer {

std::optional<LogFormat> parse_log_format(std::string_view name) {
  if (name == "native") return LogFormat::native;
  if (name == "presentmon") return LogFormat::presentmon;
  if (name == "mangohud") return LogFormat::mangohud;
  return std::nullopt;
}

std::string_view presentmon_header() {
  return "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,Dropped,TimeInSeconds,"
         "msInPresentAPI,msBetweenPresents,AllowsTearing,PresentMode,msUntilRenderComplete,msUntilDisplayed,"
         "msBetweenDisplayChange";
}

namespace {

/// The length of the valid UTF-8 sequence at s[i], 0 if there is none.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  std::size_t n = 0;
  unsigned min = 0;
  if (c >= 0xC2 && c <= 0xDF) n = 2, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, min = 0x10000;
  else return 0;
  if (i + n > s.size()) return 0;
  auto cp = static_cast<unsigned>(c & (0x7F >> n));
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else if (static_cast<unsigned char>(c) < 0x80) {
          out += c;
        } else if (const std::size_t n = utf8_length(s, i); n > 0) {
          out.append(s.substr(i, n));
          i += n - 1;
        } else {
          out += "\\ufffd";  // not UTF-8: the replacement character keeps the JSON valid
        }
    }
  }
  return out + "\"";
}

std::string json_number(double value, int digits) {
  return std::isfinite(value) ? format_fixed(value, digits) : std::string{"null"};
}

namespace {

class NativeSink final : public FrameLogSink {
 public:
  explicit NativeSink(std::ostream& out) : writer_{out} {}
  void write(const FrameRecord& r) override { writer_.write(r); }

 private:
  NativeLogWriter writer_;
};

/// PresentMon 1.x: one row per present, timed from the Present call's start as PresentMon
/// times it (TimeInSeconds, msBetweenPresents, msUntilDisplayed); msInPresentAPI is the call's
/// length. What this engine does not measure is NA.
class PresentMonSink final : public FrameLogSink {
 public:
  PresentMonSink(std::ostream& out, const RunInfo& info) : out_{out}, info_{info} {
    out_ << presentmon_header() << '\n';
    char addr[32];
    std::snprintf(addr, sizeof addr, "0x%016llX", static_cast<unsigned long long>(info.swapchain_address));
    address_ = addr;
    const bool vsync = info.present_mode.rfind("fifo", 0) == 0;
    sync_interval_ = vsync ? "1" : "0";
    tearing_ = info.present_mode == "immediate" ? "1" : "0";
  }
  void write(const FrameRecord& r) override {
    const Nanos call = r.present_issued;  // the Present call's start
    const std::string between = last_present_ ? format_fixed(to_ms(call - *last_present_), 4) : "0.0000";
    std::string until_displayed = "NA", between_display = "NA";
    if (r.display) {
      until_displayed = format_fixed(to_ms(std::max(*r.display - call, Nanos::zero())), 4);
      if (last_display_) between_display = format_fixed(to_ms(*r.display - *last_display_), 4);
      last_display_ = r.display;
    }
    out_ << info_.application << ',' << std::to_string(info_.process_id) << ',' << address_ << ",Vulkan," << sync_interval_
         << ",0,0," << format_fixed(to_ms(call) / 1000.0, 6) << ','
         << format_fixed(to_ms(std::max(r.present - call, Nanos::zero())), 4) << ',' << between << ',' << tearing_
         << ",Unknown,NA," << until_displayed << ',' << between_display << '\n';
    last_present_ = call;
  }

 private:
  std::ostream& out_;
  const RunInfo info_;
  std::string address_, sync_interval_, tearing_;
  std::optional<Nanos> last_present_, last_display_;
};

/// MangoHud: a line of system-info names, a line of their values, then the frame columns.
class MangoHudSink final : public FrameLogSink {
 public:
  MangoHudSink(std::ostream& out, const RunInfo& info) : out_{out} {
    out_ << "os,cpu,gpu,ram,kernel,driver,cpuscheduler\n";
    out_ << "Linux,," << csv_safe(info.device) << ",,,,\n";
    out_ << "fps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,gpu_vram_used,"
            "gpu_power,ram_used,swap_used,process_rss,elapsed\n";
  }
  void write(const FrameRecord& r) override {
    const Nanos shown = shown_time(r);
    if (last_) {
      const double frametime = to_ms(shown - *last_);
      const double fps = frametime > 0 ? 1000.0 / frametime : 0;
      // elapsed: nanoseconds since the run start, as MangoHud writes it.
      out_ << format_fixed(fps, 4) << ',' << format_fixed(frametime, 4) << ",0,0,0,0,0,0,0,0,0,0,0," << std::to_string(shown.count()) << '\n';
    }
    last_ = shown;
  }

 private:
  static std::string csv_safe(std::string s) {
    for (char& c : s)
      if (c == ',' || c == '\n') c = ' ';
    return s;
  }
  std::ostream& out_;
  std::optional<Nanos> last_;
};

}  // namespace

std::unique_ptr<FrameLogSink> make_log_sink(LogFormat format, std::ostream& out, const RunInfo& info) {
  switch (format) {
    case LogFormat::presentmon: return std::make_unique<PresentMonSink>(out, info);
    case LogFormat::mangohud: return std::make_unique<MangoHudSink>(out, info);
    case LogFormat::native: break;
  }
  return std::make_unique<NativeSink>(out);
}

// ---------------------------------------------------------------- Chrome trace

ChromeTraceWriter::ChromeTraceWriter(std::ostream& out, const RunInfo& info) : out_{out} {
  out_ << "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"application\":" << json_string(info.application)
       << ",\"policy\":" << json_string(info.policy) << "},\"traceEvents\":[\n";
  event("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,\"args\":{\"name\":" +
        json_string(info.application) + "}}");
}

void ChromeTraceWriter::event(const std::string& body) {
  if (!first_) out_ << ",\n";
  out_ << body;
  first_ = false;
}

void ChromeTraceWriter::write(const FrameRecord& r) {
  auto us = [](Nanos t) { return format_fixed(static_cast<double>(t.count()) / 1000.0, 3); };
  const Nanos end = r.cpu_start + r.render + r.update + r.pacer_wait;
  const std::string frame = std::to_string(r.frame);
  auto slice = [&](const std::string& name, Nanos start, Nanos dur, const std::string& args) {
    event("{\"name\":" + json_string(name) + ",\"cat\":\"frame\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":" + us(start) +
          ",\"dur\":" + us(dur) + (args.empty() ? "" : ",\"args\":{" + args + "}") + "}");
  };
  slice("frame " + frame, r.cpu_start, end - r.cpu_start,
        "\"alpha\":" + json_number(r.alpha, 6) + ",\"interval_ms\":" + json_number(to_ms(r.interval), 6) +
            ",\"sim_steps\":" + std::to_string(r.sim_steps) + ",\"events\":" + json_string(format_events(r.events)));
  slice("render", r.cpu_start, r.render, "");
  if (r.update > Nanos::zero()) slice("update x" + std::to_string(r.sim_steps), r.cpu_start + r.render, r.update, "");
  if (r.pacer_wait > Nanos::zero()) slice("wait", r.cpu_start + r.render + r.update, r.pacer_wait, "");
  if (r.events != event_none)
    event("{\"name\":" + json_string(format_events(r.events)) + ",\"cat\":\"interval\",\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":1,\"ts\":" +
          us(r.cpu_start) + "}");
  event("{\"name\":\"interval_ms\",\"ph\":\"C\",\"pid\":1,\"ts\":" + us(r.cpu_start) + ",\"args\":{\"interval\":" +
        json_number(to_ms(r.interval), 6) + "}}");
  const Nanos shown = shown_time(r);
  if (last_shown_) {
    const double frame_ms = to_ms(shown - *last_shown_);
    event("{\"name\":\"frame_ms\",\"ph\":\"C\",\"pid\":1,\"ts\":" + us(shown) + ",\"args\":{\"frame\":" +
          json_number(frame_ms, 6) + "}}");
    if (stutter_.add(frame_ms))
      event("{\"name\":\"stutter\",\"cat\":\"stutter\",\"ph\":\"i\",\"s\":\"g\",\"pid\":1,\"tid\":1,\"ts\":" + us(shown) +
            ",\"args\":{\"frame_ms\":" + json_number(frame_ms, 3) + "}}");
  }
  last_shown_ = shown;
}

void ChromeTraceWriter::finish() {
  if (finished_) return;
  finished_ = true;
  out_ << "\n]}\n";
}

void write_run_metadata(std::ostream& out, const RunInfo& info, const Summary* summary) {
  out << "{\n  \"application\": " << json_string(info.application) << ",\n  \"policy\": " << json_string(info.policy)
      << ",\n  \"present_mode\": " << json_string(info.present_mode) << ",\n  \"device\": " << json_string(info.device)
      << ",\n  \"version\": " << json_string(info.version) << ",\n  \"process_id\": " << std::to_string(info.process_id)
      << ",\n  \"config\": {";
  bool first = true;
  for (const auto& [k, v] : info.config) {
    out << (first ? "\n    " : ",\n    ") << json_string(k) << ": " << json_string(v);
    first = false;
  }
  out << (first ? "}" : "\n  }");
  if (!info.measured.empty()) {
    out << ",\n  \"measured\": {";
    for (std::size_t i = 0; i < info.measured.size(); ++i)
      out << (i == 0 ? "\n    " : ",\n    ") << json_string(info.measured[i].first) << ": "
          << json_number(info.measured[i].second, 6);
    out << "\n  }";
  }
  if (summary) {
    const Summary& m = *summary;
    const std::pair<const char*, double> fields[] = {
        {"frames", static_cast<double>(m.frames)}, {"duration_ms", m.duration_ms}, {"average_fps", m.average_fps},
        {"interval_mean_ms", m.interval_mean_ms}, {"interval_p50_ms", m.interval_p50_ms},
        {"interval_p99_ms", m.interval_p99_ms}, {"interval_max_ms", m.interval_max_ms},
        {"anim_error_p50_ms", m.anim_error_p50_ms}, {"anim_error_p99_ms", m.anim_error_p99_ms},
        {"anim_error_max_ms", m.anim_error_max_ms}, {"lateness_p50_ms", m.lateness_p50_ms}, {"latency_p50_ms", m.latency_p50_ms},
        {"lateness_p99_ms", m.lateness_p99_ms}, {"stutters", static_cast<double>(m.stutters)},
        {"stutter_time_pct", m.stutter_time_pct}, {"p1_fps", m.p1_fps}, {"p01_fps", m.p01_fps},
        {"low1_fps", m.low1_fps}, {"low01_fps", m.low01_fps}, {"busy_share", m.busy_share},
        {"wait_share", m.wait_share}, {"interval_changes_per_min", m.interval_changes_per_min},
        {"sim_steps", static_cast<double>(m.sim_steps)}, {"dropped_ms", m.dropped_ms}};
    out << ",\n  \"summary\": {";
    for (std::size_t i = 0; i < std::size(fields); ++i)
      out << (i == 0 ? "\n    " : ",\n    ") << json_string(fields[i].first) << ": " << json_number(fields[i].second, 6);
    out << "\n  }";
  }
  out << "\n}\n";
}

std::string run_metadata_path(std::string_view log_path) {
  return std::filesystem::path{log_path}.replace_extension(".meta.json").string();
}

std::optional<std::string> run_metadata_value(std::string_view json, std::string_view key) {
  // "key" then a colon, with any JSON whitespace around it (this writer puts one space after
  // the colon; a compact or re-indented file has none or more).
  const std::string name = "\"" + std::string{key} + "\"";
  const auto blank = [&](std::size_t j) { return j < json.size() && (json[j] == ' ' || json[j] == '\t' || json[j] == '\n' || json[j] == '\r'); };
  std::size_t i = std::string_view::npos;
  for (auto at = json.find(name); at != std::string_view::npos; at = json.find(name, at + 1)) {
    std::size_t j = at + name.size();
    while (blank(j)) ++j;
    if (j >= json.size() || json[j] != ':') continue;  // the key's text as a value, not a key
    for (++j; blank(j);) ++j;
    i = j;
    break;
  }
  if (i == std::string_view::npos) return std::nullopt;
  std::string value;
  if (i < json.size() && json[i] == '"') {
    for (++i; i < json.size() && json[i] != '"'; ++i) {
      // \" and \\; any other escape (json_string's \uXXXX for a control character, which no
      // config value holds) keeps its letters without the backslash.
      if (json[i] == '\\' && i + 1 < json.size()) ++i;
      value += json[i];
    }
    if (i >= json.size()) return std::nullopt;  // no closing quote: cut short
    return value;
  }
  for (; i < json.size() && json[i] != ',' && json[i] != '\n' && json[i] != '}' && !blank(i); ++i) value += json[i];
  return value;
}

}  // namespace pacer
