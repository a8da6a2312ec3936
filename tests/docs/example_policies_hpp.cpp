// header: pacer/core/include/pacer/policies.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/policies.hpp, word for word between the two marks:
// "flipcode" on 40 ms steps updates the world in 40 ms steps, and an unknown name is
// refused with a message listing the known ones.
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include "pacer/policies.hpp"

using namespace std::chrono_literals;  // the example's ms literal

int main() {
// [example]
using namespace std::chrono_literals;  // the time literals below (ms, ns)
pacer::PolicyConfig cfg;                       // defaults of each part apply
cfg.sim.step = 40ms;                           // a 25 Hz simulation
std::unique_ptr<pacer::Pacer> p = pacer::create_pacer("flipcode", cfg);
// throws std::invalid_argument for an unknown name (listing the known ones) or a
// config a policy refuses (naming the field and its value)
// [example]
  if (p->name() != "flipcode") return 1;
  // Two frames 100 ms apart: the second owes 100 ms of simulation, stepped 40 ms at a time.
  p->begin_frame(0ns);
  p->end_render(0ns);
  for (pacer::Action a = p->next(0ns); a.kind != pacer::ActionKind::render; a = p->next(0ns))
    if (a.kind == pacer::ActionKind::update) p->end_update(0ns);
  p->begin_frame(100ms);
  p->end_render(100ms);
  int updates = 0;
  for (pacer::Action a = p->next(100ms); a.kind != pacer::ActionKind::render; a = p->next(100ms)) {
    if (a.kind != pacer::ActionKind::update || a.step != 40ms) return 1;
    ++updates;
    p->end_update(100ms);
  }
  if (updates < 2) return 1;
  try {
    (void)pacer::create_pacer("flipcod", cfg);
    return 1;
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).find("flipcode") == std::string::npos) return 1;
    std::printf("flipcode: %d updates of 40 ms; refused: %s\n", updates, e.what());
  }
  return 0;
}
