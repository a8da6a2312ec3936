// header: pacer/core/include/pacer/fixed_step.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/fixed_step.hpp, word for word between the two marks:
// one step of 1/64 s from t = 1 s, and a frame ending a quarter of the way into it reads alpha 0.25.
#include <cstdio>

#include "pacer/fixed_step.hpp"

using namespace std::chrono_literals;  // the example's ns literals

int main() {
  const pacer::Nanos start = 1'000'000'000ns;                 // the first frame's time
  const pacer::Nanos frame_end = start + 3'906'250ns;          // a quarter of a step later
// [example]
using namespace std::chrono_literals;  // the time literals below (ms, ns)
pacer::FixedStepClock clock{start, 15'625'000ns};
clock.advance(clock.step());              // previous = current; current += step
double a = clock.alpha_at(frame_end);     // (frame_end - previous) / (current - previous)
// [example]
  if (clock.previous() != start || clock.current() != start + 15'625'000ns || clock.steps() != 1) return 1;
  if (a != 0.25) return 1;
  std::printf("one step of %.3f ms, alpha %.2f\n", pacer::to_ms(clock.step()), a);
  return 0;
}
