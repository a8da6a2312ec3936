// header: engine/include/engine/window.hpp
// links: framepacer::engine
// run: vulkan
// The usage example of engine/window.hpp, word for word between the two marks, with the header
// it names: a loop on a manual clock polls the window for 3 frames. Run where there is a display
// (Xvfb in the tests): it exits 0 once 3 frames ran with the window open.
#include <cstdio>
#include <stdexcept>

#include "engine/window.hpp"
#include "example_manual_loop.hpp"  // after the header: it is compiled on its own first

int main() {
  example::ManualLoop rig{pacer::Nanos{2'000'000}};  // each draw advances the manual clock
  engine::Loop& loop = rig.loop;
  loop.set_policy("adaptive", pacer::PolicyConfig{});
  try {
// [example]
engine::Window window{"my game", 1280, 720};
loop.poll = [&] {                    // loop: an engine::Loop (engine/loop.hpp)
  for (const engine::InputEvent& e : window.poll()) loop.push_input(e);
  return !window.should_close();
};
// [example]
    const engine::RunResult result = loop.run({.max_frames = 3});
    if (result.frames != 3 || result.quit_requested || window.framebuffer_size().first == 0) return 1;
    std::printf("3 frames polled from a %ux%u window\n", window.framebuffer_size().first, window.framebuffer_size().second);
    return 0;
  } catch (const std::runtime_error& e) {
    std::printf("%s\n", e.what());
    return 1;
  }
}
