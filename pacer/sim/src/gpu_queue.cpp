#include "pacer/gpu_queue.hpp"

#include <algorithm>

namespace pacer {

GpuQueue::GpuQueue(int frames_in_flight) : in_flight_{static_cast<std::size_t>(std::max(frames_in_flight, 1))} {}

Nanos GpuQueue::acquire(Nanos now) const {
  // work_ ends with the latest frame and keeps at least in_flight_ of them (poll).
  if (work_.size() < in_flight_) return now;
  return std::max(now, work_[work_.size() - in_flight_].done);
}

Nanos GpuQueue::submit(std::int64_t frame, Nanos now, Nanos cost) {
  const Nanos start = work_.empty() ? now : std::max(now, work_.back().done);
  work_.push_back({frame, start + std::max(cost, Nanos::zero()), std::max(cost, Nanos::zero())});
  return work_.back().done;
}

Nanos GpuQueue::ready(Nanos now) const { return work_.empty() ? now : std::max(now, work_.back().done); }

void GpuQueue::poll(Nanos now, const std::function<void(std::int64_t, Nanos)>& sink) {
  for (Work& w : work_) {
    if (w.done > now) break;
    if (!w.reported) sink(w.frame, w.cost);
    w.reported = true;
  }
  // Kept while a fence may still be waited on, or the time is not yet reported.
  while (work_.size() > in_flight_ && work_.front().reported) work_.pop_front();
}

}  // namespace pacer
