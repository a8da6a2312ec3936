// engine/rolling_stats.hpp - pacing statistics over the latest frames, readable at run time.
//
// A ring of the latest `window` completed frame records (bounded memory however long the
// run); the numbers are pacer::summarize() (pacer/stats.hpp) over exactly those records,
// recomputed when asked after new records arrived.
//
//   const engine::RollingStats& s = loop.stats();          // the loop feeds it every record (engine/loop.hpp)
//   ui.text("{:.1f} fps, p99 {:.2f} ms, {} stutters", s.fps(), s.p99_frame_ms(), s.stutters());
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pacer/pacer.hpp"
#include "pacer/stats.hpp"

namespace engine {

class RollingStats {
 public:
  static constexpr std::size_t default_window = 240;  ///< 4 s at 60 Hz

  explicit RollingStats(std::size_t window = default_window);

  /// Adds a completed frame record; the oldest one leaves once the window is full.
  void add(const pacer::FrameRecord& r);
  /// Drops every record (and resizes the window when `window` > 0).
  void reset(std::size_t window = 0);

  std::size_t window() const { return window_; }
  /// Records held (at most window()).
  std::size_t size() const { return ring_.size(); }
  /// Records added since the start (or the last reset).
  std::int64_t total() const { return total_; }
  /// The records held, oldest first.
  std::vector<pacer::FrameRecord> records() const;

  /// pacer::summarize(records()) with no warm-up: every field of pacer::Summary.
  const pacer::Summary& summary() const;
  double fps() const { return summary().average_fps; }
  double p99_frame_ms() const { return summary().interval_p99_ms; }
  double p99_anim_error_ms() const { return summary().anim_error_p99_ms; }
  std::int64_t stutters() const { return summary().stutters; }

 private:
  std::size_t window_;
  std::vector<pacer::FrameRecord> ring_;
  std::size_t next_ = 0;  ///< where the next record goes once the ring is full
  std::int64_t total_ = 0;
  mutable bool dirty_ = true;
  mutable pacer::Summary summary_{};
};

}  // namespace engine
