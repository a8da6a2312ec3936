// header: pacer/core/include/pacer/adaptive_literal.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/adaptive_literal.hpp, word for word between the two
// marks, then 120 frames of 3 ms (on a 60 Hz display it does not know about): frames start
// 16 ms apart until a shrink window of headroom, then the interval shrinks; alpha in (0, 1].
#include <cstdio>

#include "pacer/adaptive_literal.hpp"
#include "example_fifo_driver.hpp"  // after the header: it is compiled on its own first

using namespace std::chrono_literals;  // the example's ns and ms literals

int main() {
// [example]
using namespace std::chrono_literals;  // the time literals below (ms, ns)
pacer::AdaptiveConfig cfg;                      // only the seed's fields are read
cfg.initial_interval = 16ms;
pacer::AdaptiveLiteralPolicy pacer{cfg, {}};     // FixedStepConfig{} = 1/64 s steps, cap 8
auto plan = pacer.begin_frame(0ns);              // then the protocol of pacer/pacer.hpp
// [example]
  example::Fifo display{16'666'667ns};
  display.finish_frame(pacer, plan, 3ms);
  for (int i = 1; i < 120; ++i) {
    const pacer::Nanos gap = example::now - plan.start, interval = pacer.interval();
    plan = pacer.begin_frame(example::now);
    if (gap != interval || !(plan.alpha > 0.0 && plan.alpha <= 1.0)) return 1;  // frames start an interval apart
    if (i < 30 && plan.start != pacer::Nanos{16'000'000 * i}) return 1;          // 16 ms until a shrink window passed
    display.finish_frame(pacer, plan, 3ms);
    if (pacer.interval() > interval) return 1;                                  // headroom only ever shrinks it
  }
  if (pacer.interval() >= 8ms || pacer.interval() < cfg.min_interval) return 1;
  const pacer::Nanos ahead = pacer.clock().current() - example::now;                    // the world just past the frame end
  if (ahead < 0ns || ahead > 15'625'000ns || display.updates != pacer.clock().steps()) return 1;
  std::printf("16 ms for 30 frames, then shrunk to %.3f ms; %d updates\n", pacer::to_ms(pacer.interval()), display.updates);
  return 0;
}
