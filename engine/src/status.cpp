#include "engine/status.hpp"

#include <spdlog/spdlog.h>

#include <span>

namespace engine {

std::string StatusReporter::status_line(const pacer::Summary& s, pacer::Nanos interval) {
  return fmt::format("fps {:.1f} | interval {:.2f} ms | p99 frame {:.2f} ms | p99 |anim err| {:.3f} ms | stutters {}",
                     s.average_fps, pacer::to_ms(interval), s.interval_p99_ms, s.anim_error_p99_ms, s.stutters);
}

void StatusReporter::add(const pacer::FrameRecord& r) {
  all_.push_back(r);
  const pacer::Nanos first = pacer::shown_time(all_[second_start_]);
  if (pacer::shown_time(r) - first < pacer::Nanos{1'000'000'000}) return;
  if (!quiet_) {
    const std::span<const pacer::FrameRecord> window{all_.data() + second_start_, all_.size() - second_start_};
    spdlog::info("{} [{}]", status_line(pacer::summarize(window), r.interval), r.policy);
  }
  second_start_ = all_.size() - 1;
}

pacer::Summary StatusReporter::summarize_run(std::int64_t warmup) const {
  return pacer::summarize(all_, {.warmup_frames = warmup});
}

}  // namespace engine
