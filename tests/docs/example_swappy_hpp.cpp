// header: pacer/core/include/pacer/swappy.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/swappy.hpp, word for word between the two marks,
// then 288 frames of 3 ms on a virtual 144 Hz FIFO display: the swap interval stays one
// period and every frame is shown one vblank after the one before.
#include <cstdio>

#include "pacer/swappy.hpp"
#include "example_fifo_driver.hpp"  // after the header: it is compiled on its own first

using namespace std::chrono_literals;  // the example's ns literals

int main() {
// [example]
using namespace std::chrono_literals;  // the time literals below (ms, ns)
pacer::SwappyConfig cfg;                      // 60 Hz, Swappy's defaults
cfg.refresh_period = 6'944'444ns;             // a 144 Hz display (pacer::fit_to_display)
cfg.swap_duration = cfg.refresh_period;       // let it run at the full rate
pacer::SwappyPolicy swappy{cfg, {}};          // FixedStepConfig{}: 1/64 s steps, cap 8
auto plan = swappy.begin_frame(0ns);          // then the protocol of pacer/pacer.hpp:
// hold the present until plan.present_at, feed display times to observe_display()
// [example]
  example::Fifo fifo{cfg.refresh_period};
  pacer::Nanos previous = fifo.finish_frame(swappy, plan, 3ms);
  int missed = 0;
  for (int i = 1; i < 288; ++i) {
    fifo.deliver(swappy);
    plan = swappy.begin_frame(example::now);
    if (!(plan.alpha >= 0.0 && plan.alpha <= 1.0)) return 1;
    const pacer::Nanos shown = fifo.finish_frame(swappy, plan, 3ms);
    if (shown - previous != cfg.refresh_period) ++missed;
    previous = shown;
  }
  if (swappy.swap_interval() != 1 || missed > 0 || fifo.updates < 125 || fifo.updates > 130) return 1;
  std::printf("288 frames at swap interval %d, none missed, %d updates\n", swappy.swap_interval(), fifo.updates);
  return 0;
}
