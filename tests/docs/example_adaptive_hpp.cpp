// header: pacer/core/include/pacer/adaptive.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/adaptive.hpp, word for word between the two marks,
// then 240 frames of 3 ms on a virtual 60 Hz FIFO display: the policy runs display-aware,
// keeps a 1-period interval and shows every frame one vblank after the one before.
#include <cstdint>
#include <cstdio>
#include <deque>
#include <utility>

#include "pacer/adaptive.hpp"

using namespace std::chrono_literals;  // the example's ns literals

// The loop around the example, in virtual time: each frame renders for `work`, holds its
// present until plan.present_at when the policy plans one, and is shown by a FIFO display
// at its first vblank after the present (queued behind the frame before); display times
// reach the policy once the clock has passed them; updates take 0.2 ms, waits end on time.
static pacer::Nanos g_now{0};
struct Fifo {
  pacer::Nanos period;
  pacer::Nanos last{-1};
  std::deque<std::pair<std::int64_t, pacer::Nanos>> unseen{};
  int updates = 0;
  void deliver(pacer::Pacer& p) {
    while (!unseen.empty() && unseen.front().second <= g_now) {
      p.observe_display(unseen.front().first, unseen.front().second);
      unseen.pop_front();
    }
  }
  pacer::Nanos finish_frame(pacer::Pacer& p, const pacer::FramePlan& plan, pacer::Nanos work) {
    g_now += work;
    p.end_render(g_now);
    if (plan.present_at > g_now) {
      const pacer::Nanos from = g_now;
      g_now = plan.present_at;
      p.hold_present(from, g_now);
    }
    pacer::Nanos shown = (g_now / period + 1) * period;
    if (last >= pacer::Nanos::zero() && shown < last + period) shown = last + period;
    last = shown;
    p.set_presentation(g_now, shown, pacer::TimingSource::virtual_time);
    unseen.emplace_back(plan.frame, shown);
    for (;;) {
      const pacer::Action a = p.next(g_now);
      if (a.kind == pacer::ActionKind::render) return shown;
      if (a.kind == pacer::ActionKind::update) {
        g_now += pacer::Nanos{200'000};
        ++updates;
        p.end_update(g_now);
      } else {
        if (a.until > g_now) g_now = a.until;
        p.observe_wake(a.until, g_now);
      }
    }
  }
};

int main() {
// [example]
using namespace std::chrono_literals;  // the time literals below (16ms, 15'625'000ns)
pacer::AdaptiveConfig cfg;              // every constant has a documented default
cfg.refresh_period = 16'666'667ns;      // a 60 Hz FIFO swapchain; 0 = unknown
cfg.pipeline_frames = 2;                // swapchain images - 1 (pacer::fit_to_display)
pacer::AdaptivePolicy pacer{cfg, {}};   // FixedStepConfig{} = 1/64 s steps, cap 8
auto plan = pacer.begin_frame(0ns);     // then the protocol of pacer/pacer.hpp;
// hold the present until plan.present_at when it is >= 0, and feed display
// times back with pacer.observe_display(frame, shown).
// [example]
  Fifo fifo{cfg.refresh_period};
  pacer::Nanos previous = fifo.finish_frame(pacer, plan, 3ms);
  int missed = 0;
  for (int i = 1; i < 240; ++i) {
    fifo.deliver(pacer);
    plan = pacer.begin_frame(g_now);
    if (!(plan.alpha >= 0.0 && plan.alpha <= 1.0)) return 1;
    const pacer::Nanos shown = fifo.finish_frame(pacer, plan, 3ms);
    if (shown - previous != cfg.refresh_period) ++missed;
    previous = shown;
  }
  if (!pacer.display_mode() || pacer.interval() != cfg.refresh_period || missed > 0 || fifo.updates < 250 || fifo.updates > 262) return 1;
  std::printf("240 frames at %.3f ms, none missed, %d updates\n", pacer::to_ms(pacer.interval()), fifo.updates);
  return 0;
}
