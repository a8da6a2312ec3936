// The loop around a policy's header example, in virtual time (tests/docs/example_*_hpp.cpp):
// each frame renders for `work`, holds its present until plan.present_at when the policy
// plans one, and is shown by a FIFO display at its first vblank after the present (queued
// behind the frame before); display times reach the policy once the clock has passed them;
// updates take 0.2 ms, waits end on time. Included after the header under test, so that
// header is compiled on its own first.
#pragma once

#include <cstdint>
#include <deque>
#include <utility>

#include "pacer/pacer.hpp"

namespace example {

inline pacer::Nanos now{0};

struct Fifo {
  pacer::Nanos period;
  pacer::Nanos last{-1};
  std::deque<std::pair<std::int64_t, pacer::Nanos>> unseen{};
  int updates = 0;
  pacer::Nanos woke{-1};  // when the latest wait ended

  void deliver(pacer::Pacer& p) {
    while (!unseen.empty() && unseen.front().second <= now) {
      p.observe_display(unseen.front().first, unseen.front().second);
      unseen.pop_front();
    }
  }

  /// Renders the planned frame, presents it, runs the policy's actions up to the next
  /// render; returns when the frame is shown.
  pacer::Nanos finish_frame(pacer::Pacer& p, const pacer::FramePlan& plan, pacer::Nanos work) {
    now += work;
    p.end_render(now);
    if (plan.present_at > now) {
      const pacer::Nanos from = now;
      now = plan.present_at;
      p.hold_present(from, now);
    }
    pacer::Nanos shown = (now / period + 1) * period;
    if (last >= pacer::Nanos::zero() && shown < last + period) shown = last + period;
    last = shown;
    p.set_presentation(now, shown, pacer::TimingSource::virtual_time);
    unseen.emplace_back(plan.frame, shown);
    for (;;) {
      const pacer::Action a = p.next(now);
      if (a.kind == pacer::ActionKind::render) return shown;
      if (a.kind == pacer::ActionKind::update) {
        now += pacer::Nanos{200'000};
        ++updates;
        p.end_update(now);
      } else {
        if (a.until > now) now = a.until;
        woke = now;
        p.observe_wake(a.until, now);
      }
    }
  }
};

}  // namespace example
