// header: pacer/core/include/pacer/framepace.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/framepace.hpp, word for word between the two marks,
// then 144 frames of 3 ms in virtual time: the Auto limit of a 144 Hz monitor is 1/143.5 s,
// and with waits that end on time its once-a-frame sleeps end exactly that far apart.
#include <cstdio>

#include "pacer/framepace.hpp"
#include "example_fifo_driver.hpp"  // after the header: it is compiled on its own first

using namespace std::chrono_literals;  // the example's ns literals

int main() {
// [example]
using namespace std::chrono_literals;  // the time literals below (ms, ns)
pacer::FramepaceConfig cfg;                   // Auto on a 60 Hz monitor: 1/59.5 s
cfg.frametime_limit = pacer::framepace_auto_limit(6'944'444ns);   // a 144 Hz monitor
pacer::FramepacePolicy limiter{cfg, {}};      // FixedStepConfig{}: 1/64 s steps, cap 8
auto plan = limiter.begin_frame(0ns);         // then the protocol of pacer/pacer.hpp
// [example]
  if (cfg.frametime_limit != 6'968'641ns) return 1;   // 1/143.5 s
  example::Fifo display{6'944'444ns};
  display.finish_frame(limiter, plan, 3ms);
  pacer::Nanos previous_wake = display.woke;
  int sleeps = 0;
  for (int i = 1; i < 144; ++i) {
    display.deliver(limiter);
    plan = limiter.begin_frame(example::now);
    if (!(plan.alpha >= 0.0 && plan.alpha <= 1.0)) return 1;
    display.finish_frame(limiter, plan, 3ms);
    if (display.woke != previous_wake) {  // the frame's one sleep: it ends a limit after the one before
      if (previous_wake >= 0ns && display.woke - previous_wake != cfg.frametime_limit) return 1;
      previous_wake = display.woke;
      ++sleeps;
    }
  }
  if (sleeps < 142 || display.updates < 60) return 1;
  std::printf("%d sleeps ending %.6f ms apart, %d updates\n", sleeps, pacer::to_ms(cfg.frametime_limit), display.updates);
  return 0;
}
