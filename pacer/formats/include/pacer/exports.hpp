// pacer/exports.hpp - the frame records in the formats users' tools already open.
//
// Every format is an export of the same FrameRecords (docs/log-format.md):
//   native      the pacing log of docs/log-format.md (pacer/log_writer.hpp)
//   presentmon  PresentMon 1.x CSV, the layout CapFrameX opens
//   mangohud    MangoHud's CSV: system-info header, its values, then the frame columns
// plus a Chrome/Perfetto trace (trace-event JSON) and a sidecar JSON of run metadata.
//
//   std::ifstream in{pacer::run_metadata_path("run.csv")};        // run.meta.json
//   const std::string json{std::istreambuf_iterator<char>{in}, {}};
//   std::optional<std::string> step = pacer::run_metadata_value(json, "step_ms");
//
//   pacer::RunInfo info;  info.application = "bouncing_balls";  info.policy = "adaptive";
//   auto sink = pacer::make_log_sink(pacer::LogFormat::presentmon, file, info);
//   sink->write(record);  /* ... */  sink->finish();
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pacer/pacer.hpp"
#include "pacer/stats.hpp"

namespace pacer {

enum class LogFormat { native, presentmon, mangohud };
std::optional<LogFormat> parse_log_format(std::string_view name);

/// Run metadata: the sidecar JSON, and the fields the exports need.
struct RunInfo {
  std::string application = "framepacer";
  std::string policy;
  std::string present_mode;   ///< fifo, fifo-relaxed, mailbox, immediate, or a virtual display spec
  std::string device;
  std::string version;
  std::uint64_t process_id = 0;
  std::uint64_t swapchain_address = 0x1000;  ///< a constant for the run: recreation does not change it
  std::vector<std::pair<std::string, std::string>> config;  ///< other settings, as text
  /// Numbers the run measured outside the frame records (the engine's waiter: waits, time
  /// waited, slept and spun), written as the sidecar's "measured" object.
  std::vector<std::pair<std::string, double>> measured;
};

/// Writes records incrementally in one format.
class FrameLogSink {
 public:
  virtual ~FrameLogSink() = default;
  virtual void write(const FrameRecord& r) = 0;
  /// After the last record (the Chrome trace closes its JSON array here).
  virtual void finish() {}
};

std::unique_ptr<FrameLogSink> make_log_sink(LogFormat format, std::ostream& out, const RunInfo& info);

/// The exact PresentMon 1.x header (no newline).
std::string_view presentmon_header();

/// Chrome/Perfetto trace events: a slice per frame with render, update and wait slices
/// inside, instants for interval events and stutters, counters for interval and frame time.
class ChromeTraceWriter final : public FrameLogSink {
 public:
  ChromeTraceWriter(std::ostream& out, const RunInfo& info);
  void write(const FrameRecord& r) override;
  void finish() override;

 private:
  void event(const std::string& body);
  std::ostream& out_;
  bool first_ = true;
  bool finished_ = false;
  std::optional<Nanos> last_shown_;
  StutterDetector stutter_;  ///< the stats' stutter rule, for the stutter instants
};

/// {"application": ..., "policy": ..., ..., "config": {...}, "summary": {...}}; the summary
/// (the metrics of pacer/stats.hpp) only when given.
void write_run_metadata(std::ostream& out, const RunInfo& info, const Summary* summary = nullptr);

/// The sidecar of a log: run.csv -> run.meta.json (the file write_run_metadata fills).
std::string run_metadata_path(std::string_view log_path);

/// Reads back one value of a sidecar write_run_metadata wrote: the first `"key": value`, a
/// string's quotes removed and its \" and \\ unescaped, a number as written; nullopt where
/// the key is absent.
std::optional<std::string> run_metadata_value(std::string_view json, std::string_view key);

/// A JSON string literal with escaping: control characters as \uXXXX, bytes that are not
/// UTF-8 as \ufffd, so any input gives valid JSON.
std::string json_string(std::string_view s);

/// A JSON number with `digits` decimals; null for NaN and infinities (JSON has none).
std::string json_number(double value, int digits);

}  // namespace pacer
