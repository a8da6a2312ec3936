// header: pacer/core/include/pacer/adaptive.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/adaptive.hpp, word for word between the two marks,
// then 240 frames of 3 ms on a virtual 60 Hz FIFO display: the policy runs display-aware,
// keeps a 1-period interval and shows every frame one vblank after the one before.
#include <cstdio>

#include "pacer/adaptive.hpp"
#include "example_fifo_driver.hpp"  // after the header: it is compiled on its own first

using namespace std::chrono_literals;  // the example's ns literals

int main() {
// [example]
using namespace std::chrono_literals;  // the time literals below (ms, ns)
pacer::AdaptiveConfig cfg;              // every constant has a documented default
cfg.refresh_period = 16'666'667ns;      // a 60 Hz FIFO swapchain; 0 = unknown
cfg.pipeline_frames = 2;                // swapchain images - 1 (pacer::fit_to_display)
pacer::AdaptivePolicy pacer{cfg, {}};   // FixedStepConfig{} = 1/64 s steps, cap 8
auto plan = pacer.begin_frame(0ns);     // then the protocol of pacer/pacer.hpp;
// hold the present until plan.present_at when it is >= 0, and feed display
// times back with pacer.observe_display(frame, shown).
// [example]
  example::Fifo fifo{cfg.refresh_period};
  pacer::Nanos previous = fifo.finish_frame(pacer, plan, 3ms);
  int missed = 0;
  for (int i = 1; i < 240; ++i) {
    fifo.deliver(pacer);
    plan = pacer.begin_frame(example::now);
    if (!(plan.alpha >= 0.0 && plan.alpha <= 1.0)) return 1;
    const pacer::Nanos shown = fifo.finish_frame(pacer, plan, 3ms);
    if (shown - previous != cfg.refresh_period) ++missed;
    previous = shown;
  }
  if (!pacer.display_mode() || pacer.interval() != cfg.refresh_period || missed > 0 || fifo.updates < 250 || fifo.updates > 262) return 1;
  std::printf("240 frames at %.3f ms, none missed, %d updates\n", pacer::to_ms(pacer.interval()), fifo.updates);
  return 0;
}
