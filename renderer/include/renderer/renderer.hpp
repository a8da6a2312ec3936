// renderer/renderer.hpp - draws coloured circles with Vulkan into a GLFW window or offscreen.
//
// The renderer owns the Vulkan instance, device, swapchain (or, headless, offscreen images)
// and one instanced sprite pipeline. It knows nothing of pacing: the caller decides when a
// frame begins and when it is presented; the renderer only says whether a frame can be drawn
// now and, where the driver supports VK_KHR_present_wait, when a present became visible.
//
//   glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);   // GLFW/glfw3.h
//   GLFWwindow* window = glfwCreateWindow(1280, 720, "demo", nullptr, nullptr);
//   auto gpu = renderer::Renderer::create({.present_mode = renderer::PresentMode::mailbox}, window);
//   glfwSetWindowUserPointer(window, gpu.get());
//   glfwSetFramebufferSizeCallback(window, [](GLFWwindow* w, int, int) {
//     static_cast<renderer::Renderer*>(glfwGetWindowUserPointer(w))->notify_resized();
//   });
//   while (!glfwWindowShouldClose(window)) {
//     glfwPollEvents();
//     if (!gpu->begin_frame()) {                     // minimized or swapchain recreated
//       if (gpu->frame_status().kind == renderer::FrameStatus::skipped_minimized) glfwWaitEvents();
//       continue;
//     }
//     gpu->draw(circles, 0x202020ffu);
//     const std::uint64_t id = gpu->present();       // 0 unless has_present_wait()
//     if (id != 0) gpu->wait_for_present(id, std::chrono::milliseconds{100});  // optional: until it is shown
//   }
//
// Threading: one thread uses a Renderer. Function pointers come from volk's global tables,
// so only one Renderer may exist at a time in a process: Renderer::create throws
// renderer::Error while another lives. A game that loads volk for a Vulkan device of its own
// shares those tables with the renderer (each volkLoadDevice points them at its device): use
// one or the other in a process, not both at once.
#pragma once

#include <vulkan/vulkan_core.h>  // types only: VK_NO_PROTOTYPES is defined by the framepacer::volk target

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct GLFWwindow;

namespace renderer {

/// How the swapchain hands images to the display (VkPresentModeKHR).
enum class PresentMode { fifo, fifo_relaxed, mailbox, immediate };

/// "fifo", "fifo-relaxed", "mailbox", "immediate" (exact, lower case); nullopt otherwise.
std::optional<PresentMode> parse_present_mode(std::string_view name);
/// The name parse_present_mode accepts.
std::string_view to_string(PresentMode mode);

/// One circle. x, y and radius are in framebuffer pixels, origin at the top-left corner;
/// rgba is 0xRRGGBBAA (alpha blends over what is below; 0xff is opaque). The edge is
/// antialiased over about one pixel; the pixel at the centre has exactly the given colour
/// when alpha is 0xff. A negative radius draws a square instead: every pixel whose centre
/// is less than -radius from (x, y) along both axes, no antialiasing (overlays, text).
struct Circle {
  float x = 0;
  float y = 0;
  float radius = 0;
  std::uint32_t rgba = 0xffffffffu;
};

/// The GPU time of one frame's work: timestamp queries at the top of the pipe before its
/// command buffer's work and at the bottom after it, times timestampPeriod.
struct GpuTime {
  std::uint64_t frame = 0;                ///< the draw serial: 0 for the first draw() (frames_drawn() - 1 after it)
  std::chrono::nanoseconds duration{0};
};

/// Options for Renderer::create. The defaults give a windowed fifo renderer.
struct RendererConfig {
  PresentMode present_mode = PresentMode::fifo;  ///< falls back to fifo (warning) if unsupported
  /// Khronos validation layer + a debug messenger that logs every message through spdlog and
  /// counts warnings and errors. create() throws if the layer is not installed.
  bool validation = false;
  int gpu_index = -1;           ///< index into vkEnumeratePhysicalDevices; -1: prefer a discrete GPU
  bool headless = false;        ///< offscreen images: no window, surface or swapchain, no GLFW calls
  std::uint32_t width = 1280;   ///< headless size in pixels (windowed: the window's framebuffer)
  std::uint32_t height = 720;
  /// Extra GPU work: iterations of a cheap ALU loop in the fragment shader; 0 = none. When
  /// non-zero every pixel runs it at least once (a full-frame sprite in the clear colour is
  /// drawn under the circles), and once more per circle covering it. Colours do not change.
  std::uint32_t gpu_load = 0;
  std::uint32_t frames_in_flight = 2;  ///< CPU may record this many frames ahead of the GPU (1..4)
  /// Test only: the frame cycle reports a driver error as if the driver had returned it, for
  /// a host's tests of its failure paths: "device_lost@N", "surface_lost@N", "out_of_date@N"
  /// (N: the frames drawn before it) or "out_of_date_every"; empty: none (renderer/README.md,
  /// "Fault injection"). create() throws for a malformed value. The renderer reads no
  /// environment variable: the samples set this from FP_FAULT.
  std::string fault{};
};

/// What the last begin_frame() found.
struct FrameStatus {
  enum Kind {
    ok,                   ///< an image is acquired: draw() then present()
    skipped_minimized,    ///< minimized (iconified, or a 0x0 framebuffer): wait for events (glfwWaitEvents) and retry
    skipped_out_of_date,  ///< the swapchain was (or will be) recreated: just retry
  } kind = ok;
  std::uint32_t image_index = 0;          ///< swapchain (or offscreen) image drawn into, when ok
  std::uint64_t swapchain_generation = 0;  ///< +1 each time the swapchain is recreated
};

/// A Vulkan (or setup) failure: one line naming what failed and, where there is one, the
/// VkResult's name, e.g. "vkCreateDevice failed: VK_ERROR_INITIALIZATION_FAILED".
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what, VkResult result = VK_SUCCESS);
  VkResult result() const noexcept { return result_; }

 private:
  VkResult result_;
};

class Renderer {
 public:
  /// Creates the instance, device and swapchain (or offscreen images). window: created by
  /// the caller with GLFW_CLIENT_API = GLFW_NO_API, or nullptr when config.headless. Throws
  /// Error when there is no Vulkan loader, no suitable device, no present support, no
  /// validation layer (when asked for), or any Vulkan call fails.
  static std::unique_ptr<Renderer> create(const RendererConfig& config, GLFWwindow* window);

  /// Waits for the device to go idle, then destroys everything in reverse order.
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  /// Waits until this frame slot's previous use has finished on the GPU, then acquires the
  /// next image. Returns false when nothing should be drawn this time: the window is
  /// minimized (0x0; frame_status() says skipped_minimized: wait for events and retry) or
  /// the swapchain was out of date (it is recreated; retry at once). Each true must be
  /// followed by draw() and present(), in that order.
  bool begin_frame();
  /// The result of the last begin_frame().
  FrameStatus frame_status() const;

  /// Records and submits the frame: clears to clear_rgba (0xRRGGBBAA) and draws the circles
  /// in order (later ones on top). Precondition: begin_frame() returned true.
  void draw(std::span<const Circle> circles, std::uint32_t clear_rgba);

  /// Blocks until the GPU has finished the frame draw() submitted. A frame whose present is
  /// held to a planned time waits here first, so the present is not queued behind GPU work
  /// and is shown at the time it is made. Precondition: draw() was called for this frame.
  void wait_drawn();

  /// Queues the present (windowed) or finishes the offscreen frame (headless). Returns the
  /// present id given to VK_KHR_present_id, or 0 (headless, no present wait, or the present
  /// was rejected as out of date). Out-of-date / suboptimal swapchains are recreated before
  /// the next frame. Precondition: draw() was called for this frame.
  std::uint64_t present();

  /// True when VK_KHR_present_id and VK_KHR_present_wait are both supported and enabled.
  bool has_present_wait() const;
  /// Blocks until the present with this id has become visible or timeout passes (zero: poll).
  /// True when it was shown. False on timeout, when present wait is unavailable, when id was
  /// presented on a swapchain that has since been replaced (it can no longer be waited on),
  /// or when the swapchain is out of date.
  bool wait_for_present(std::uint64_t present_id, std::chrono::nanoseconds timeout);

  /// GPU timing: true when the queue family writes timestamps (timestampValidBits > 0 and
  /// timestampPeriod > 0); each draw() then brackets its work with two timestamp queries
  /// (a query pool per frame in flight).
  bool has_gpu_timing() const;
  /// draw() calls so far; the frame draw() just submitted has serial frames_drawn() - 1.
  std::uint64_t frames_drawn() const;
  /// GPU times of the frames finished since the last call, oldest first. Never waits: a
  /// frame's time is read once its fence has signalled (begin_frame() and wait_drawn()
  /// already waited on it, otherwise vkGetFenceStatus says so). Empty without GPU timing.
  std::vector<GpuTime> take_gpu_times();

  /// RendererConfig::gpu_load, from the next draw() on.
  void set_gpu_load(std::uint32_t iterations);
  std::uint32_t gpu_load() const;

  /// The framebuffer changed size: the swapchain is recreated at the next begin_frame().
  void notify_resized();

  /// Writes the last drawn frame to a binary PPM (P6, 8-bit RGB, alpha dropped). Headless it
  /// copies the offscreen image itself. Windowed, the presented image belongs to the display
  /// and may not be read, so the last frame's draw list (same instance data, clear colour,
  /// GPU load, extent) is rendered again with the same pipeline into an image of the
  /// swapchain's format: the pixels are the ones that were presented. Waits for the device to
  /// go idle. Returns false (and logs why) when no frame was drawn yet or writing fails.
  bool capture_ppm(const std::string& path);
  /// Why the last capture_ppm() failed ("writing 'x.ppm' failed: No space left on device"),
  /// empty after one that succeeded.
  const std::string& capture_error() const;

  /// The present mode actually in use (fifo when the requested one is not supported).
  PresentMode present_mode() const;
  /// Validation messages of severity warning or error since create() (0 without validation).
  std::uint32_t validation_messages() const;
  /// Validation messages of severity error since create().
  std::uint32_t validation_errors() const;
  /// VkPhysicalDeviceProperties::deviceName of the device in use.
  std::string device_name() const;
  /// Size in pixels of the images drawn now (swapchain or offscreen).
  VkExtent2D extent() const;
  /// Images drawn into now: the swapchain's (after any recreation), or the offscreen ones.
  std::uint32_t image_count() const;
  bool headless() const;

 private:
  struct Impl;
  explicit Renderer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace renderer
