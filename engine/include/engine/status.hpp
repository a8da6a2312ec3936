// engine/status.hpp - the once-a-second status line and the end-of-run summary.
//
//   engine::StatusReporter status{/*quiet=*/false};
//   loop.on_record = [&](const pacer::FrameRecord& r) { status.add(r); };  // loop: engine/loop.hpp
//   // status.add() logs "fps 60.0 | interval 16.67 ms | p99 frame 17.1 ms | ..." each second
//
// Memory is bounded however long the run: the status line summarizes the current second
// (a SummaryBuilder restarted each second) and the end-of-run summary streams into a
// SummaryBuilder (pacer/stats.hpp); only the first head_frames() records are held, until the
// warm-up is known.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pacer/stats.hpp"

namespace engine {

class StatusReporter {
 public:
  /// quiet: print no status lines (the run summary is still gathered). The run summary skips
  /// min(max_warmup, frames / 10) frames, the samples' rule.
  explicit StatusReporter(bool quiet, std::int64_t max_warmup = 30)
      : quiet_{quiet}, max_warmup_{max_warmup < 0 ? 0 : max_warmup} {}

  /// Adds a completed frame; logs a status line when a second of frames has gathered.
  void add(const pacer::FrameRecord& r);
  /// Frames added so far.
  std::int64_t frames() const { return frames_; }
  /// Records held before they stream into the run summary: 10 x max_warmup.
  std::int64_t head_frames() const { return 10 * max_warmup_; }
  /// The summary over the whole run after `warmup` frames. Exact for any warmup while the
  /// run is under head_frames(); past that the run summary is already streaming with
  /// max_warmup frames skipped, and `warmup` (the samples pass min(30, frames / 10), which
  /// is then max_warmup) is not looked at.
  pacer::Summary summarize_run(std::int64_t warmup) const;
  static std::string status_line(const pacer::Summary& s, pacer::Nanos interval);

 private:
  bool quiet_;
  std::int64_t max_warmup_;
  std::int64_t frames_ = 0;
  std::vector<pacer::FrameRecord> head_;  ///< the first head_frames() records, then none
  std::optional<pacer::SummaryBuilder> run_;  ///< from head_frames() on
  pacer::SummaryBuilder second_;              ///< the current second's frames
  pacer::Nanos second_start_{0};              ///< shown time of its first frame
};

}  // namespace engine
