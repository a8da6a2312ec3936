// renderer_smoke - exercises the renderer alone (no pacing): N frames of moving circles with
// validation on, window resizes along the way, then a capture whose pixel at a marker
// circle's centre must have the marker's colour. Exit 0 only when that pixel matches and the
// validation layer reported no warning or error.
//
//   xvfb-run -a -s "-screen 0 1280x720x24" renderer_smoke --present-mode mailbox --frames 300 --resize-every 40
//   renderer_smoke --headless --frames 300 --gpu-load 50
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "renderer/renderer.hpp"

namespace {

struct Args {
  bool headless = false;
  renderer::PresentMode mode = renderer::PresentMode::fifo;
  int frames = 300;
  int resize_every = 0;  // 0: one shrink at a third and one grow at two thirds of the run
  std::uint32_t gpu_load = 0;
  std::uint32_t frames_in_flight = 2;
  std::string capture = "renderer_smoke.ppm";
};

bool parse(int argc, char** argv, Args& a) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (arg == "--headless") {
      a.headless = true;
      continue;
    }
    if (!value) return false;
    ++i;
    if (arg == "--present-mode") {
      const auto m = renderer::parse_present_mode(value);
      if (!m) return false;
      a.mode = *m;
    } else if (arg == "--frames") {
      a.frames = std::atoi(value);
    } else if (arg == "--resize-every") {
      a.resize_every = std::atoi(value);
    } else if (arg == "--gpu-load") {
      a.gpu_load = static_cast<std::uint32_t>(std::strtoul(value, nullptr, 10));
    } else if (arg == "--frames-in-flight") {
      a.frames_in_flight = static_cast<std::uint32_t>(std::strtoul(value, nullptr, 10));
    } else if (arg == "--capture") {
      a.capture = value;
    } else {
      return false;
    }
  }
  return a.frames > 0;
}

/// The RGB at (x, y) of a P6 file written by capture_ppm, or -1 on a read error.
long pixel_at(const std::string& path, int x, int y) {
  std::ifstream in{path, std::ios::binary};
  std::string magic;
  int w = 0, h = 0, maxval = 0;
  in >> magic >> w >> h >> maxval;
  in.get();
  if (!in || magic != "P6" || x >= w || y >= h) return -1;
  in.seekg(static_cast<std::streamoff>((y * w + x) * 3), std::ios::cur);
  unsigned char rgb[3];
  if (!in.read(reinterpret_cast<char*>(rgb), 3)) return -1;
  return (long{rgb[0]} << 16) | (long{rgb[1]} << 8) | long{rgb[2]};
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (!parse(argc, argv, a)) {
    std::fprintf(stderr,
                 "usage: renderer_smoke [--headless] [--present-mode M] [--frames N] [--resize-every N] "
                 "[--gpu-load N] [--frames-in-flight N] [--capture FILE.ppm]\n");
    return 2;
  }
  GLFWwindow* window = nullptr;
  if (!a.headless) {
    if (!glfwInit()) {
      std::fprintf(stderr, "renderer_smoke: glfwInit failed\n");
      return 1;
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    window = glfwCreateWindow(640, 480, "renderer_smoke", nullptr, nullptr);
    if (!window) {
      std::fprintf(stderr, "renderer_smoke: glfwCreateWindow failed\n");
      glfwTerminate();
      return 1;
    }
  }

  int rc = 1;
  try {
    renderer::RendererConfig config;
    config.present_mode = a.mode;
    config.validation = true;
    config.headless = a.headless;
    config.width = 640;
    config.height = 480;
    config.gpu_load = a.gpu_load;
    config.frames_in_flight = a.frames_in_flight;
    auto gpu = renderer::Renderer::create(config, window);
    if (window) {
      glfwSetWindowUserPointer(window, gpu.get());
      glfwSetFramebufferSizeCallback(window, [](GLFWwindow* w, int, int) {
        static_cast<renderer::Renderer*>(glfwGetWindowUserPointer(w))->notify_resized();
      });
    }

    const renderer::Circle marker{100.0f, 80.0f, 30.0f, 0xff2040ffu};
    std::vector<renderer::Circle> circles;
    int drawn = 0;
    int skipped = 0;
    int shown = 0;
    while (drawn < a.frames) {
      if (window) {
        glfwPollEvents();
        const bool resize = a.resize_every > 0 ? drawn % a.resize_every == a.resize_every / 2
                                               : drawn == a.frames / 3 || drawn == 2 * a.frames / 3;
        if (resize) glfwSetWindowSize(window, 200 + (drawn * 37) % 600, 150 + (drawn * 53) % 400);
      }
      if (!gpu->begin_frame()) {
        ++skipped;
        if (gpu->frame_status().kind == renderer::FrameStatus::skipped_minimized) glfwWaitEventsTimeout(0.05);
        continue;
      }
      const VkExtent2D e = gpu->extent();
      circles.clear();
      for (int i = 0; i < 200; ++i) {
        const float t = static_cast<float>(drawn) * 0.02f + static_cast<float>(i);
        circles.push_back({static_cast<float>(e.width) * (0.5f + 0.45f * std::sin(t)),
                           static_cast<float>(e.height) * (0.5f + 0.45f * std::cos(1.3f * t)),
                           4.0f + static_cast<float>(i % 20), 0x30a0ff00u | static_cast<std::uint32_t>(0x60 + i % 0x9f)});
      }
      circles.push_back(marker);
      gpu->draw(circles, 0x101820ffu);
      const std::uint64_t id = gpu->present();
      if (id != 0 && drawn % 10 == 0 && gpu->wait_for_present(id, std::chrono::milliseconds{100})) ++shown;
      ++drawn;
    }

    const bool captured = gpu->capture_ppm(a.capture);
    const long rgb = captured ? pixel_at(a.capture, static_cast<int>(marker.x), static_cast<int>(marker.y)) : -1;
    const bool pixel_ok = rgb == static_cast<long>(marker.rgba >> 8);
    spdlog::info("renderer_smoke: {} frames, {} skipped, {} swapchain generations, present wait {} ({} seen shown), "
                 "final {}x{}, marker pixel {:06x} ({}), validation: {} messages, {} errors",
                 drawn, skipped, gpu->frame_status().swapchain_generation, gpu->has_present_wait() ? "yes" : "no",
                 shown, gpu->extent().width, gpu->extent().height, rgb, pixel_ok ? "ok" : "WRONG",
                 gpu->validation_messages(), gpu->validation_errors());
    rc = pixel_ok && gpu->validation_messages() == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "renderer_smoke: %s\n", e.what());
    rc = 1;
  }
  if (window) {
    glfwDestroyWindow(window);
    glfwTerminate();
  }
  return rc;
}
