// header: engine/include/engine/input.hpp
// links: framepacer::engine_core
// run: yes
// The usage example of engine/input.hpp, word for word between the two marks, in a scene run
// by a loop on a manual clock: a key 'A' and a released Space leave the world running; a
// Space press pauses it at the next frame.
#include <cstdio>

#include "engine/input.hpp"
#include "engine/loop.hpp"
#include "engine/scene.hpp"
#include "example_manual_loop.hpp"

class Pausable final : public engine::Scene {
 public:
  void fixed_update(pacer::Nanos) override {}
  void attached(engine::Loop& loop) override { loop_ = &loop; }

 private:
  engine::Loop* loop_ = nullptr;

 public:
// [example]
// an engine::Scene (engine/scene.hpp) that keeps the engine::Loop* attached() gives it (engine/loop.hpp)
void on_input(const engine::InputEvent& e) override {
  if (e.kind == engine::InputEvent::Kind::key && e.pressed() && e.key == engine::keys::space) loop_->pause();
}
// [example]
};

int main() {
  example::ManualLoop<Pausable> rig{pacer::Nanos{2'000'000}};  // each draw advances the manual clock
  engine::Loop& loop = rig.loop;
  loop.set_policy("adaptive", pacer::PolicyConfig{});
  engine::InputEvent a{.key = 'A'}, space_up{.action = engine::InputEvent::Action::release, .key = engine::keys::space};
  loop.push_input(a);
  loop.push_input(space_up);
  for (int i = 0; i < 3; ++i) loop.frame();
  if (loop.paused()) return 1;
  loop.push_input(engine::InputEvent{.key = engine::keys::space});
  loop.frame();
  loop.finish();
  if (!loop.paused()) return 1;
  std::printf("'A' and a released Space ignored, a Space press paused the world\n");
  return 0;
}
