// header: engine/include/engine/demo_keys.hpp
// links: framepacer::engine
// run: yes
// The usage example of engine/demo_keys.hpp, word for word between the two marks, as the poll
// hook of a loop on a manual clock: Space and P act on the loop, 'A' reaches the scene, Esc
// quits; with the demo keys off every key reaches the scene.
#include <cstdio>
#include <vector>

#include "engine/demo_keys.hpp"
#include "example_manual_loop.hpp"  // after the header: it is compiled on its own first

struct Keyed final : engine::Scene {
  int keys = 0;
  void fixed_update(pacer::Nanos) override {}
  void on_input(const engine::InputEvent&) override { ++keys; }
};

struct {  // what a window hands over (engine::Window::poll)
  std::vector<std::vector<engine::InputEvent>> frames;
  std::vector<engine::InputEvent> poll() {
    std::vector<engine::InputEvent> events;
    if (!frames.empty()) events = frames.front(), frames.erase(frames.begin());
    return events;
  }
} window;

int main() {
  example::ManualLoop<Keyed> rig{pacer::Nanos{2'000'000}};  // each draw advances the manual clock
  engine::Loop& loop = rig.loop;
  Keyed& scene = rig.scene;
  loop.set_policy("adaptive", pacer::PolicyConfig{});
  bool demo_keys = true;
  loop.poll = [&]() -> bool {
// [example]
for (const engine::InputEvent& e : window.poll()) {
  const engine::DemoKey k = demo_keys ? engine::demo_key(e, loop, scene) : engine::DemoKey::none;
  if (k == engine::DemoKey::quit) return false;
  if (k == engine::DemoKey::none) loop.push_input(e);    // the scene sees the rest
}
// [example]
    return true;
  };
  const engine::InputEvent space{.key = engine::keys::space}, p{.key = 'P'}, a{.key = 'A'},
      esc{.key = engine::keys::escape};
  window.frames = {{space, p, a}, {}, {esc}};
  const engine::RunResult result = loop.run({.max_frames = 10});
  if (!result.quit_requested || loop.interpolate() || loop.policy() == "adaptive" || scene.keys != 1) return 1;
  demo_keys = false;
  window.frames = {{space, esc}, {}};
  loop.run({.max_frames = 2});
  if (scene.keys != 3 || loop.interpolate()) return 1;
  std::printf("Space, P and Esc taken as demo keys, 'A' passed on; with them off, every key passed on\n");
  return 0;
}
