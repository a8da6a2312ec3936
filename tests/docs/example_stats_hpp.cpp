// header: pacer/formats/include/pacer/stats.hpp
// links: framepacer::formats
// run: yes
// The usage example at the top of pacer/stats.hpp, word for word between the two marks, over
// 130 frames shown every 1/60 s with the world advanced as much: past the 30-frame warm-up,
// 100 frames at 60 fps and no animation error.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "pacer/stats.hpp"

int main() {
  // What the example leaves to the caller: the records of a run.
  std::vector<pacer::FrameRecord> records(130);
  for (std::size_t i = 0; i < records.size(); ++i) {
    pacer::FrameRecord& r = records[i];
    r.frame = static_cast<std::int64_t>(i);
    r.cpu_start = r.planned_start = pacer::Nanos{static_cast<std::int64_t>(i) * 16'666'667};
    r.present = r.cpu_start + pacer::Nanos{4'000'000};
    r.display = r.present + pacer::Nanos{8'000'000};
    r.animation_time = r.cpu_start;
  }
// [example]
pacer::Summary s = pacer::summarize(records, {.warmup_frames = 30});
std::printf("%.1f fps, p99 |anim err| %.3f ms\n", s.average_fps, s.anim_error_p99_ms);
// [example]
  return s.frames == 100 && s.average_fps > 59.99 && s.average_fps < 60.01 && s.anim_error_p99_ms == 0.0 ? 0 : 1;
}
