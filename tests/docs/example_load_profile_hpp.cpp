// header: pacer/sim/include/pacer/load_profile.hpp
// links: framepacer::sim
// run: yes
// The usage example at the top of pacer/load_profile.hpp, word for word between the two
// marks: "spike:3,40/120" costs 3 ms a frame and 40 ms on frames 119, 239, ...
#include <cstdint>
#include <cstdio>

#include "pacer/load_profile.hpp"

// What the example leaves to the caller: a trace opener (this spec opens no trace), a frame.
static const pacer::TraceOpener open_file = pacer::trace_file_opener();

static pacer::Nanos cost_of(std::int64_t frame) {
// [example]
pacer::LoadProfile p = pacer::LoadProfile::parse("spike:3,40/120", open_file);
pacer::Nanos cost = p.at(frame);
// [example]
  return cost;
}

int main() {
  const pacer::Nanos base{3'000'000}, peak{40'000'000};
  for (std::int64_t f = 0; f < 360; ++f) {
    if (cost_of(f) != (f % 120 == 119 ? peak : base)) {
      std::printf("frame %lld: %.3f ms\n", static_cast<long long>(f), pacer::to_ms(cost_of(f)));
      return 1;
    }
  }
  std::printf("spike:3,40/120: 3 ms, 40 ms on frames 119, 239 and 359\n");
  return 0;
}
