// header: pacer/sim/include/pacer/display.hpp
// links: framepacer::sim
// run: yes
// The usage example at the top of pacer/display.hpp, word for word between the two marks: a
// 3 ms frame on a 60 Hz fifo display acquires at once and is shown at the next vblank; two
// more frames presented right after it are shown one per refresh after it.
#include <cstdint>
#include <cstdio>
#include <optional>

#include "pacer/display.hpp"

int main() {
  // What the example leaves to the loop: the time, the frame, its render cost.
  const pacer::Nanos now{1'000'000};
  const std::int64_t frame = 0;
  const pacer::Nanos render_cost{3'000'000};
// [example]
pacer::DisplaySpec spec = pacer::parse_display("fifo:60").value();
pacer::DisplayModel display{spec};
pacer::Nanos ready = display.acquire(now);     // >= now: when an image is free
pacer::Presented p = display.present(frame, ready + render_cost);
// p.display: the vblank it latched to (nullopt: replaced, never shown)
// [example]
  if (ready != now || !p.display || *p.display != display.vblank(1)) return 1;
  if (*p.display < pacer::Nanos{16'666'666} || *p.display > pacer::Nanos{16'666'667}) return 1;
  pacer::Nanos at = ready + render_cost;
  for (std::int64_t f = 1; f <= 2; ++f) {
    at = display.acquire(at);
    const pacer::Presented q = display.present(f, at);
    if (!q.display || *q.display != display.vblank(f + 1)) return 1;
  }
  std::printf("frame 0 shown at %.6f ms, frames 1 and 2 one refresh apart after it\n", pacer::to_ms(*p.display));
  return 0;
}
