// engine/status.hpp - the once-a-second status line and the end-of-run summary.
//
//   engine::StatusReporter status{clock};
//   loop.on_record = [&](const pacer::FrameRecord& r) { status.add(r); };
//   // status.add() logs "fps 60.0 | interval 16.67 ms | p99 frame 17.1 ms | ..." each second
#pragma once

#include <string>
#include <vector>

#include "pacer/stats.hpp"

namespace engine {

class StatusReporter {
 public:
  /// quiet: keep the records, print no status lines.
  explicit StatusReporter(bool quiet) : quiet_{quiet} {}

  /// Adds a completed frame; logs a status line when a second of frames has gathered.
  void add(const pacer::FrameRecord& r);
  const std::vector<pacer::FrameRecord>& records() const { return all_; }
  /// The summary over the whole run (after `warmup` frames) and its spdlog lines.
  pacer::Summary summarize_run(std::int64_t warmup) const;
  static std::string status_line(const pacer::Summary& s, pacer::Nanos interval);

 private:
  bool quiet_;
  std::vector<pacer::FrameRecord> all_;
  std::size_t second_start_ = 0;
};

}  // namespace engine
