// header: pacer/core/include/pacer/time.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/time.hpp, word for word between the two marks:
// 16_ms is exactly 16'000'000 ns and to_ms reads it back as 16.0.
#include <cstdio>

#include "pacer/time.hpp"

int main() {
// [example]
using namespace pacer::literals;
pacer::Nanos frame_end = 16_ms;            // 16'000'000 ns after the origin
double shown = pacer::to_ms(frame_end);    // 16.0, for logs and reports only
// [example]
  if (frame_end.count() != 16'000'000 || shown != 16.0) return 1;
  std::printf("16_ms = %lld ns = %.1f ms\n", static_cast<long long>(frame_end.count()), shown);
  return 0;
}
