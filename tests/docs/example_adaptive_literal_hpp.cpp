// header: pacer/core/include/pacer/adaptive_literal.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/adaptive_literal.hpp, word for word between the two
// marks, then 120 frames of 3 ms (on a 60 Hz display it does not know about): frames start
// 16 ms apart until a shrink window of headroom, then the interval shrinks; alpha in (0, 1].
#include <cstdint>
#include <cstdio>
#include <deque>
#include <utility>

#include "pacer/adaptive_literal.hpp"

using namespace std::chrono_literals;  // the example's ns and ms literals

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
pacer::AdaptiveConfig cfg;                      // only the seed's fields are read
cfg.initial_interval = 16ms;
pacer::AdaptiveLiteralPolicy pacer{cfg, {}};     // FixedStepConfig{} = 1/64 s steps, cap 8
auto plan = pacer.begin_frame(0ns);              // then the protocol of pacer/pacer.hpp
// [example]
  Fifo display{16'666'667ns};
  display.finish_frame(pacer, plan, 3ms);
  for (int i = 1; i < 120; ++i) {
    const pacer::Nanos gap = g_now - plan.start, interval = pacer.interval();
    plan = pacer.begin_frame(g_now);
    if (gap != interval || !(plan.alpha > 0.0 && plan.alpha <= 1.0)) return 1;  // frames start an interval apart
    if (i < 30 && plan.start != pacer::Nanos{16'000'000 * i}) return 1;          // 16 ms until a shrink window passed
    display.finish_frame(pacer, plan, 3ms);
    if (pacer.interval() > interval) return 1;                                  // headroom only ever shrinks it
  }
  if (pacer.interval() >= 8ms || pacer.interval() < cfg.min_interval) return 1;
  const pacer::Nanos ahead = pacer.clock().current() - g_now;                    // the world just past the frame end
  if (ahead < 0ns || ahead > 15'625'000ns || display.updates != pacer.clock().steps()) return 1;
  std::printf("16 ms for 30 frames, then shrunk to %.3f ms; %d updates\n", pacer::to_ms(pacer.interval()), display.updates);
  return 0;
}
