#include "engine/status.hpp"

#include <spdlog/spdlog.h>

#include "engine/log.hpp"

namespace engine {

std::string StatusReporter::status_line(const pacer::Summary& s, pacer::Nanos interval) {
  return fmt::format("fps {:.1f} | interval {:.2f} ms | p99 frame {:.2f} ms | p99 |anim err| {:.3f} ms | stutters {}",
                     s.average_fps, pacer::to_ms(interval), s.interval_p99_ms, s.anim_error_p99_ms, s.stutters);
}

void StatusReporter::add(const pacer::FrameRecord& r) {
  ++frames_;
  // The run summary: held until the warm-up rule is settled, then streamed.
  if (run_) {
    run_->add(r);
  } else {
    head_.push_back(r);
    if (static_cast<std::int64_t>(head_.size()) >= head_frames()) {
      run_.emplace(pacer::StatsOptions{.warmup_frames = max_warmup_});
      for (const auto& h : head_) run_->add(h);
      std::vector<pacer::FrameRecord>{}.swap(head_);
    }
  }
  // The status line: a second of frames, each second starting with the last frame of the one before.
  if (second_.seen() == 0) second_start_ = pacer::shown_time(r);
  second_.add(r);
  if (pacer::shown_time(r) - second_start_ < pacer::Nanos{1'000'000'000}) return;
  if (!quiet_) logger()->info("{} [{}]", status_line(second_.result(), r.interval), r.policy);
  second_ = pacer::SummaryBuilder{};
  second_start_ = pacer::shown_time(r);
  second_.add(r);
}

pacer::Summary StatusReporter::summarize_run(std::int64_t warmup) const {
  if (run_) return run_->result();
  return pacer::summarize(head_, {.warmup_frames = warmup});
}

}  // namespace engine
