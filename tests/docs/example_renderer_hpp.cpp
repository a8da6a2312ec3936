// header: renderer/include/renderer/renderer.hpp
// links: framepacer::renderer X11::X11
// run: vulkan
// The usage example of renderer/renderer.hpp, word for word between the two marks, with the
// header it names: a mailbox window drawing one circle until it is closed. Run where there is a
// Vulkan device and an X display (lavapipe under Xvfb in the tests): a second X connection
// waits until the circle's colour is in the window's middle (30 s at most), then closes the
// window as a window manager does when its close box is clicked (WM_DELETE_WINDOW); it exits 0
// once the loop ended with the circle seen on screen.
#include <GLFW/glfw3.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include <unistd.h>  // getpid

#include "renderer/renderer.hpp"
#include "x11_window.hpp"  // the user's side: find, close

namespace {

// Whether the pixel at the window's middle is the circle's orange (0xff8000).
bool circle_shown(Display* x, Window w) {
  XWindowAttributes a;
  if (XGetWindowAttributes(x, w, &a) == 0 || a.map_state != IsViewable) return false;
  XImage* image = XGetImage(x, w, a.width / 2, a.height / 2, 1, 1, AllPlanes, ZPixmap);
  if (image == nullptr) return false;
  const unsigned long pixel = XGetPixel(image, 0, 0);
  XDestroyImage(image);
  return (pixel & 0xffffffUL) == 0xff8000UL;
}

// The user's side: wait (up to 30 s) for the circle on screen, then close the window "demo"
// (also when the circle never came: the loop then ends and main reports it).
void close_when_drawn(std::atomic<bool>& seen, const std::atomic<bool>& stop) {
  Display* x = XOpenDisplay(nullptr);
  if (x == nullptr) return;
  Window w = 0;
  for (int i = 0; i < 300 && !stop.load() && !seen.load(); ++i) {
    if (w == 0) w = x11_user::find_named(x, DefaultRootWindow(x), "demo", static_cast<unsigned long>(getpid()));
    if (w != 0 && circle_shown(x, w)) seen = true;
    else std::this_thread::sleep_for(std::chrono::milliseconds{100});
  }
  if (w != 0 && !stop.load()) x11_user::close(x, w);
  XCloseDisplay(x);
}

}  // namespace

int main() {
  if (glfwInit() != GLFW_TRUE) return 1;
  const std::vector<renderer::Circle> circles{{640, 360, 40, 0xff8000ffu}};
  std::atomic<bool> seen{false};
  std::atomic<bool> stop{false};
  std::thread user{close_when_drawn, std::ref(seen), std::cref(stop)};
  int code = 0;
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
    std::printf("%llu frames drawn, the circle %s\n", static_cast<unsigned long long>(gpu->frames_drawn()),
                seen ? "seen in the window" : "never seen");
    if (!seen) code = 1;
    gpu.reset();
    glfwDestroyWindow(window);
  } catch (const renderer::Error& e) {
    std::printf("%s\n", e.what());
    code = 1;
  }
  stop = true;
  user.join();
  glfwTerminate();
  return code;
}
