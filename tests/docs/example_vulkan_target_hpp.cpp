// header: engine/include/engine/vulkan_target.hpp
// links: framepacer::engine framepacer::renderer
// run: vulkan
// The usage example of engine/vulkan_target.hpp, word for word between the two marks, with the
// headers it names: 30 frames drawn offscreen (window nullptr) by the renderer. Run where there
// is a Vulkan device (lavapipe in the tests): it exits 0 once the renderer drew all 30.
#include <cstdio>

#include "engine/loop.hpp"
#include "engine/vulkan_target.hpp"
#include "renderer/renderer.hpp"

struct Dot final : engine::Scene {
  void fixed_update(pacer::Nanos) override {}
  void render(double, engine::DrawList& out) override { out.circles.push_back({160, 120, 20, 0xff8000ff}); }
};

int main() {
  try {
    auto gpu = renderer::Renderer::create({.headless = true, .width = 320, .height = 240}, nullptr);
    renderer::Renderer& renderer = *gpu;
    GLFWwindow* window = nullptr;  // offscreen
    Dot scene;
    engine::SteadyClock clock;
    engine::PreciseWaiter waiter{clock};
// [example]
engine::VulkanTarget target{renderer, window, clock};  // a renderer::Renderer (renderer/renderer.hpp), a GLFWwindow* or nullptr
engine::Loop loop{clock, waiter, target, scene};       // engine/loop.hpp
// [example]
    pacer::PolicyConfig cfg;
    cfg.adaptive.initial_interval = pacer::Nanos{2'000'000};
    loop.set_policy("adaptive", cfg);
    const engine::RunResult result = loop.run({.max_frames = 30});
    if (result.frames != 30 || renderer.frames_drawn() != 30) return 1;
    std::printf("30 frames drawn offscreen on %s\n", renderer.device_name().c_str());
    return 0;
  } catch (const renderer::Error& e) {
    std::printf("no Vulkan device: %s\n", e.what());
    return 1;
  }
}
