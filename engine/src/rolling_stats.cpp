#include "engine/rolling_stats.hpp"

namespace engine {

RollingStats::RollingStats(std::size_t window) : window_{window == 0 ? 1 : window} { ring_.reserve(window_); }

void RollingStats::add(const pacer::FrameRecord& r) {
  ++total_;
  dirty_ = true;
  if (ring_.size() < window_) {
    ring_.push_back(r);
    return;
  }
  ring_[next_] = r;
  next_ = (next_ + 1) % window_;
}

void RollingStats::reset(std::size_t window) {
  if (window > 0) window_ = window;
  std::vector<pacer::FrameRecord>{}.swap(ring_);
  ring_.reserve(window_);
  next_ = 0;
  total_ = 0;
  dirty_ = true;
}

std::vector<pacer::FrameRecord> RollingStats::records() const {
  std::vector<pacer::FrameRecord> out;
  out.reserve(ring_.size());
  // Full ring: the oldest record is at next_.
  for (std::size_t i = 0; i < ring_.size(); ++i) out.push_back(ring_[(next_ + i) % ring_.size()]);
  return out;
}

const pacer::Summary& RollingStats::summary() const {
  if (dirty_) {
    summary_ = pacer::summarize(records(), {.warmup_frames = 0});
    dirty_ = false;
  }
  return summary_;
}

}  // namespace engine
