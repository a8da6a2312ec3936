// header: pacer/core/include/pacer/random.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/random.hpp, word for word between the two marks:
// each draw lands in its range, and a second generator and frame_draw with the same seed
// give the same values.
#include <cstdint>
#include <cstdio>

#include "pacer/random.hpp"

int main() {
// [example]
pacer::SplitMix64 rng{7};
double u = rng.unit();            // [0, 1)
std::int64_t k = rng.below(100);  // [0, 100)
double d = pacer::frame_draw(7, 42, 1);  // frame 42's draw of stream 1: always the same
// [example]
  pacer::SplitMix64 again{7};
  bool same_stream = again.unit() == u && again.below(100) == k;
  bool in_range = u >= 0.0 && u < 1.0 && k >= 0 && k < 100 && d >= 0.0 && d < 1.0;
  bool repeatable = pacer::frame_draw(7, 42, 1) == d && pacer::frame_draw(7, 43, 1) != d;
  if (!same_stream || !in_range || !repeatable) return 1;
  std::printf("u %.3f, k %lld, frame 42 draw %.3f\n", u, static_cast<long long>(k), d);
  return 0;
}
