// header: engine/include/engine/rolling_stats.hpp
// links: framepacer::engine_core
// run: yes
// The usage example of engine/rolling_stats.hpp, word for word between the two marks, with the
// header it names: after 300 frames paced at 1/60 s on a manual clock the loop's rolling
// window holds its latest 240 records and the UI is handed about 60 fps.
#include <cstdio>

#include "engine/rolling_stats.hpp"
#include "example_manual_loop.hpp"  // after the header: it is compiled on its own first

int main() {
  example::ManualLoop rig{pacer::Nanos{3'000'000}};  // each draw advances the manual clock
  engine::Loop& loop = rig.loop;
  pacer::PolicyConfig cfg;
  cfg.adaptive.shrink = false;  // holds the first interval, 1/60 s
  loop.set_policy("adaptive", cfg);
  loop.run({.max_frames = 300});
  struct {
    double fps = 0, p99_ms = 0;
    std::int64_t stutters = -1;
    void text(const char*, double f, double p99, std::int64_t n) { fps = f, p99_ms = p99, stutters = n; }
  } ui;
// [example]
const engine::RollingStats& s = loop.stats();          // the loop feeds it every record (engine/loop.hpp)
ui.text("{:.1f} fps, p99 {:.2f} ms, {} stutters", s.fps(), s.p99_frame_ms(), s.stutters());
// [example]
  if (s.size() != 240 || s.total() != 300) return 1;
  if (!(ui.fps > 59.0 && ui.fps < 61.0) || !(ui.p99_ms > 16.0 && ui.p99_ms < 17.5) || ui.stutters != 0) return 1;
  std::printf("%.1f fps, p99 %.2f ms, %lld stutters over the latest %zu frames\n", ui.fps, ui.p99_ms,
              static_cast<long long>(ui.stutters), s.size());
  return 0;
}
