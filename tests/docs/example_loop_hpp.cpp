// header: engine/include/engine/loop.hpp
// links: framepacer::engine_core
// run: yes
// The first usage example of engine/loop.hpp, word for word between the two marks, run in real
// time into a null target with a 0.25-1 ms interval (well under a second): 600 frames, each
// record handed to the log once, in order.
#include <cstdio>

#include "engine/loop.hpp"

struct Counter final : engine::Scene {
  int updates = 0;
  void fixed_update(pacer::Nanos) override { ++updates; }
};

int main() {
  engine::NullTarget target;
  Counter scene;
  pacer::PolicyConfig cfg;
  cfg.sim.step = pacer::Nanos{1'000'000};
  cfg.adaptive.initial_interval = cfg.adaptive.min_interval = pacer::Nanos{250'000};
  cfg.adaptive.max_interval = pacer::Nanos{1'000'000};
  struct {
    std::int64_t rows = 0, out_of_order = 0;
    void write(const pacer::FrameRecord& r) { out_of_order += r.frame != rows++; }
  } log;
// [example]
engine::SteadyClock clock;
engine::PreciseWaiter waiter{clock};
engine::Loop loop{clock, waiter, target, scene};
loop.set_policy("adaptive", cfg);
loop.on_record = [&](const pacer::FrameRecord& r) { log.write(r); };
loop.run({.max_frames = 600});
// [example]
  if (loop.frames() != 600 || log.rows != 600 || log.out_of_order != 0 || target.presents != 600) return 1;
  std::printf("600 frames run and logged in order, %d updates\n", scene.updates);
  return 0;
}
