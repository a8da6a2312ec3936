// header: renderer/include/renderer/renderer.hpp
// links: framepacer::renderer
// run: no
// The usage example of renderer/renderer.hpp, word for word between the two marks, with the
// header it names: a mailbox window drawing one circle until it is closed. Built here, not
// run: it needs a display and a Vulkan device (run by hand, it draws until the window closes).
#include <GLFW/glfw3.h>

#include <cstdio>
#include <vector>

#include "renderer/renderer.hpp"

int main() {
  if (glfwInit() != GLFW_TRUE) return 1;
  const std::vector<renderer::Circle> circles{{640, 360, 40, 0xff8000ffu}};
  try {
// [example]
glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);   // GLFW/glfw3.h
GLFWwindow* window = glfwCreateWindow(1280, 720, "demo", nullptr, nullptr);
auto gpu = renderer::Renderer::create({.present_mode = renderer::PresentMode::mailbox}, window);
glfwSetWindowUserPointer(window, gpu.get());
glfwSetFramebufferSizeCallback(window, [](GLFWwindow* w, int, int) {
  static_cast<renderer::Renderer*>(glfwGetWindowUserPointer(w))->notify_resized();
});
while (!glfwWindowShouldClose(window)) {
  glfwPollEvents();
  if (!gpu->begin_frame()) {                     // minimized or swapchain recreated
    if (gpu->frame_status().kind == renderer::FrameStatus::skipped_minimized) glfwWaitEvents();
    continue;
  }
  gpu->draw(circles, 0x202020ffu);
  const std::uint64_t id = gpu->present();       // 0 unless has_present_wait()
  if (id != 0) gpu->wait_for_present(id, std::chrono::milliseconds{100});  // optional: until it is shown
}
// [example]
    std::printf("%llu frames drawn\n", static_cast<unsigned long long>(gpu->frames_drawn()));
    gpu.reset();
    glfwDestroyWindow(window);
  } catch (const renderer::Error& e) {
    std::printf("%s\n", e.what());
    glfwTerminate();
    return 1;
  }
  glfwTerminate();
  return 0;
}
