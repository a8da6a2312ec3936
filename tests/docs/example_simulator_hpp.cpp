// header: pacer/sim/include/pacer/simulator.hpp
// links: framepacer::sim framepacer::pacer
// run: yes
// The usage example at the top of pacer/simulator.hpp, word for word between the two marks,
// run with the worked timeline's pacer: the 3-frame timeline to the letter, and 600 frames on
// a 60 Hz fifo display, every one shown on a vblank after the one before.
#include <chrono>
#include <cstdio>
#include <string>

#include "pacer/policies.hpp"
#include "pacer/simulator.hpp"

using namespace std::chrono_literals;

int main() {
  // The pacer the example leaves to the reader: adaptive, 5 ms steps, a 16 ms interval kept.
  pacer::PolicyConfig cfg;
  cfg.sim.step = 5ms;
  cfg.adaptive.initial_interval = 16ms;
  cfg.adaptive.shrink = false;
  auto pacer = pacer::make_pacer("adaptive", cfg);
  if (!pacer) return 1;
// [example]
using namespace std::chrono_literals;  // the time literals below (ms, ns)
pacer::SimCosts costs = pacer::SimCosts::fixed(3ms, 1ms);
pacer::SimRun run = pacer::simulate(*pacer, costs, 3);   // *pacer: pacer/policies.hpp
std::string tl = pacer::format_timeline(run.timeline);   // "R0 U5 U10 ... R32"

pacer::SimOptions opt;
opt.display = pacer::parse_display("fifo:60").value();
opt.waiter = pacer::WaiterKind::precise;  opt.seed = 7;
pacer::SimRun shown = pacer::simulate(*pacer, costs, 600, opt);   // records carry display times
// [example]
  if (tl != "R0 U5 U10 U15 U20 W16 R16 U25 U30 U35 W32 R32") {
    std::printf("timeline %s\n", tl.c_str());
    return 1;
  }
  if (shown.records.size() != 600) return 1;
  const pacer::Nanos period = opt.display.period;
  for (std::size_t i = 0; i < shown.records.size(); ++i) {
    const auto& d = shown.records[i].display;
    if (!d) return 1;
    if (i > 0 && *d < *shown.records[i - 1].display + period - 1ns) return 1;
  }
  std::printf("timeline %s; 600 frames shown, the last at %.3f ms\n", tl.c_str(),
              pacer::to_ms(*shown.records.back().display));
  return 0;
}
