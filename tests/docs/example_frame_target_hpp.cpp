// header: engine/include/engine/frame_target.hpp
// links: framepacer::engine_core
// run: yes
// The usage example of engine/frame_target.hpp, word for word between the two marks, with the
// header it names: a loop on a manual clock runs 10 frames into the null target, which takes
// every draw and every present.
#include <cstdio>

#include "engine/frame_target.hpp"
#include "engine/loop.hpp"

struct Still final : engine::Scene {
  int updates = 0;
  void fixed_update(pacer::Nanos) override { ++updates; }
};

int main() {
  engine::ManualClock clock;
  engine::ManualWaiter waiter{clock};
  Still scene;
// [example]
engine::NullTarget target;                   // accepts every frame, shows none
engine::Loop loop{clock, waiter, target, scene};  // engine/loop.hpp
// [example]
  target.on_draw = [&] { clock.advance(pacer::Nanos{2'000'000}); };
  loop.set_policy("adaptive", pacer::PolicyConfig{});
  const engine::RunResult result = loop.run({.max_frames = 10});
  if (result.frames != 10 || target.draws != 10 || target.presents != 10 || scene.updates == 0) return 1;
  std::printf("10 frames drawn and presented into the null target, %d updates\n", scene.updates);
  return 0;
}
