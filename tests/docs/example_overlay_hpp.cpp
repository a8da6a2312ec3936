// header: engine/include/engine/overlay.hpp
// links: framepacer::engine
// run: yes
// The usage example of engine/overlay.hpp, word for word between the two marks, with the header
// it names: a loop on a manual clock feeds the overlay 60 records; its panel (graph, numbers)
// is drawn on top of the scene's circle in every frame after the first.
#include <cstdio>
#include <vector>

#include "engine/loop.hpp"
#include "engine/overlay.hpp"

struct Dot final : engine::Scene {
  void fixed_update(pacer::Nanos) override {}
  void render(double, engine::DrawList& out) override { out.circles.push_back({10, 10, 5, 0xffffffff}); }
};

struct Counting final : engine::FrameTarget {  // the circles of each frame drawn
  engine::ManualClock& clock;
  std::vector<std::size_t> circles;
  explicit Counting(engine::ManualClock& c) : clock{c} {}
  bool acquire() override { return true; }
  void draw(const engine::DrawList& list) override {
    circles.push_back(list.circles.size());
    clock.advance(pacer::Nanos{2'000'000});
  }
  pacer::PresentResult present(std::int64_t) override { return {}; }
};

int main() {
  engine::ManualClock clock;
  engine::ManualWaiter waiter{clock};
  Counting target{clock};
  Dot scene;
  engine::Loop loop{clock, waiter, target, scene};
  loop.set_policy("adaptive", pacer::PolicyConfig{});
// [example]
engine::Overlay overlay;
loop.on_record = [&](const pacer::FrameRecord& r) { overlay.add(r); };  // loop: engine/loop.hpp
loop.on_presented = [&](const pacer::FramePlan&) { overlay.build(loop.pacer()->interval()); };
loop.set_overlay(&overlay.shapes());  // nullptr hides it (F3 / O, --overlay)
// [example]
  loop.run({.max_frames = 60});
  if (target.circles.size() != 60 || target.circles[0] != 1) return 1;  // nothing built before the first present
  for (std::size_t i = 1; i < target.circles.size(); ++i)
    if (target.circles[i] < 1 + 100) return 1;  // the scene's circle, then the panel
  if (overlay.shapes().size() < 100 || overlay.lines().empty() || overlay.summary().frames < 50) return 1;
  std::printf("overlay: %zu shapes, %zu lines over %lld frames, drawn on top of the scene\n", overlay.shapes().size(),
              overlay.lines().size(), static_cast<long long>(overlay.summary().frames));
  return 0;
}
