// header: pacer/core/include/pacer/peer_step.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/peer_step.hpp, word for word between the two marks:
// the first frame shows the start state (no update, alpha 1); the test then reads two more
// frames as the example does each frame: 35 ms owed on 10 ms steps is 3 updates, alpha 0.5,
// and a 200 ms frame hits the cap of 8 updates and drops the whole steps still owed.
#include <cstdio>

#include "pacer/peer_step.hpp"

static int g_updates = 0;
static void update(pacer::Nanos step) {
  if (step != pacer::Nanos{10'000'000}) throw "an update of the wrong step";
  ++g_updates;
}

int main() {
  pacer::FixedStepConfig config;
  config.step = pacer::Nanos{10'000'000};
  pacer::validate(config);
  pacer::Nanos now{1'000'000'000};
  pacer::FramePlan plan;
  plan.alpha = -1;
// [example]
pacer::detail::PeerStep sim{config};            // validated FixedStepConfig
sim.start(now);                                 // the first frame
pacer::detail::PeerNote note = sim.read(now);   // once per frame, before the updates
while (auto step = sim.step(note)) update(*step);   // note: events, dropped debt
sim.fill(plan);                                 // alpha and animation time of the render
// [example]
  if (g_updates != 0 || plan.alpha != 1.0 || plan.animation_time != now) return 1;
  // The next frame, 35 ms later: three updates, the render half a step behind the read.
  note = sim.read(now += pacer::Nanos{35'000'000});
  while (auto step = sim.step(note)) update(*step);
  sim.fill(plan);
  if (g_updates != 3 || plan.alpha != 0.5 || note.events != pacer::event_none) return 1;
  // A 200 ms frame: the cap of 8 updates, the whole steps beyond it dropped (discard debt).
  note = sim.read(now += pacer::Nanos{200'000'000});
  while (auto step = sim.step(note)) update(*step);
  if (g_updates != 11 || (note.events & pacer::event_step_cap) == 0 || note.dropped != pacer::Nanos{120'000'000}) return 1;
  const pacer::TimeAccount a = sim.account();
  if (a.simulated + a.pending + a.dropped != a.elapsed) return 1;
  std::printf("%d updates, %.0f ms dropped at the step cap\n", g_updates, pacer::to_ms(note.dropped));
  return 0;
}
