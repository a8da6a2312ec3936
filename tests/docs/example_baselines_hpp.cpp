// header: pacer/core/include/pacer/baselines.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/baselines.hpp, word for word between the two marks,
// then 100 uncapped frames of 4 ms in virtual time: no waits, every update 1/64 s, alpha =
// accumulator / dt in [0, 1), and the world 100 x 4 ms on less the accumulator.
#include <cstdio>
#include <optional>

#include "pacer/baselines.hpp"

using namespace std::chrono_literals;  // the example's ns literal

int main() {
// [example]
using namespace std::chrono_literals;  // the time literals below (ms, ns)
pacer::AccumulatorPolicy acc{{}, {}};       // uncapped, dt = 1/64 s
auto plan = acc.begin_frame(0ns);           // then the protocol of pacer/pacer.hpp
// [example]
  pacer::Nanos now = 0ns;
  int updates = 0;
  for (int frame = 0; frame < 100; ++frame) {
    if (frame > 0) plan = acc.begin_frame(now);
    if (!(plan.alpha >= 0.0 && plan.alpha < 1.0)) return 1;
    now += 4ms;                                                   // the render
    acc.end_render(now);
    acc.set_presentation(now, std::nullopt, pacer::TimingSource::virtual_time);
    for (pacer::Action a = acc.next(now); a.kind != pacer::ActionKind::render; a = acc.next(now)) {
      if (a.kind != pacer::ActionKind::update || a.step != 15'625'000ns) return 1;  // uncapped: never a wait
      ++updates;                                                  // updates take no time here
      acc.end_update(now);
    }
  }
  if (acc.accumulator() < 0ns || acc.accumulator() >= 15'625'000ns) return 1;
  if (acc.clock().current() + acc.accumulator() != 400ms || acc.clock().steps() != updates) return 1;
  std::printf("100 frames of 4 ms: %d updates, %.3f ms left in the accumulator\n", updates,
              pacer::to_ms(acc.accumulator()));
  return 0;
}
