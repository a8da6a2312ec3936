// header: pacer/core/include/pacer/framepace.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/framepace.hpp, word for word between the two marks,
// then 144 frames of 3 ms in virtual time: the Auto limit of a 144 Hz monitor is 1/143.5 s,
// and with waits that end on time its once-a-frame sleeps end exactly that far apart.
#include <cstdint>
#include <cstdio>
#include <deque>
#include <utility>

#include "pacer/framepace.hpp"

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
  pacer::Nanos woke{-1};  // when the latest wait ended
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
        woke = g_now;
        p.observe_wake(a.until, g_now);
      }
    }
  }
};

int main() {
// [example]
using namespace std::chrono_literals;  // the time literals below (16ms, 15'625'000ns)
pacer::FramepaceConfig cfg;                   // Auto on a 60 Hz monitor: 1/59.5 s
cfg.frametime_limit = pacer::framepace_auto_limit(6'944'444ns);   // a 144 Hz monitor
pacer::FramepacePolicy limiter{cfg, {}};      // FixedStepConfig{}: 1/64 s steps, cap 8
auto plan = limiter.begin_frame(0ns);         // then the protocol of pacer/pacer.hpp
// [example]
  if (cfg.frametime_limit != 6'968'641ns) return 1;   // 1/143.5 s
  Fifo display{6'944'444ns};
  display.finish_frame(limiter, plan, 3ms);
  pacer::Nanos previous_wake = display.woke;
  int sleeps = 0;
  for (int i = 1; i < 144; ++i) {
    display.deliver(limiter);
    plan = limiter.begin_frame(g_now);
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
