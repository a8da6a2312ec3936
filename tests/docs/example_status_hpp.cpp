// header: engine/include/engine/status.hpp
// links: framepacer::engine
// run: yes
// The usage example of engine/status.hpp, word for word between the two marks, with the header
// it names: 70 frames paced at 1/60 s on a manual clock make one status line (a second of
// frames) and a run summary of all 70 at 60 fps.
#include <cstdio>

#include "engine/status.hpp"
#include "example_manual_loop.hpp"  // after the header: it is compiled on its own first

int main() {
  example::ManualLoop rig{pacer::Nanos{3'000'000}};  // each draw advances the manual clock
  engine::Loop& loop = rig.loop;
  pacer::PolicyConfig cfg;
  cfg.adaptive.shrink = false;  // holds the first interval, 1/60 s
  loop.set_policy("adaptive", cfg);
// [example]
engine::StatusReporter status{/*quiet=*/false};
loop.on_record = [&](const pacer::FrameRecord& r) { status.add(r); };  // loop: engine/loop.hpp
// status.add() logs "fps 60.0 | interval 16.67 ms | p99 frame 17.1 ms | ..." each second
// [example]
  loop.run({.max_frames = 70});
  const pacer::Summary s = status.summarize_run(0);
  if (status.frames() != 70 || s.frames != 70 || !(s.average_fps > 59.0 && s.average_fps < 61.0)) return 1;
  std::printf("run summary: %lld frames at %.1f fps\n", static_cast<long long>(s.frames), s.average_fps);
  return 0;
}
