// renderer.cpp - the frame cycle: begin_frame (wait, acquire), draw (record, submit), present.
//
// Synchronisation, per frame in flight (slot): a fence (the slot's last submit is done, so
// its command buffer, instance buffer and image-available semaphore may be reused) and an
// image-available semaphore (acquire -> submit). Per swapchain image: a render-finished
// semaphore (submit -> present). It must be per image, not per slot: the presentation engine
// gives no signal when it has finished waiting on a present's semaphore, but it has when the
// image is acquired again, and only then is that image's semaphore reused.
#include "renderer/log.hpp"
#include "renderer/renderer.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include "capture.hpp"
#include "context.hpp"
#include "pipeline.hpp"
#include "swapchain.hpp"
#include "vk_check.hpp"

namespace renderer {

using namespace detail;

namespace {

// Headless images: the same 8-bit UNORM layout as the preferred swapchain format.
constexpr VkFormat offscreen_format = VK_FORMAT_R8G8B8A8_UNORM;

struct FrameSlot {
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence in_flight = VK_NULL_HANDLE;           ///< signalled when this slot's submit completes
  VkSemaphore image_available = VK_NULL_HANDLE;  ///< acquire -> submit (windowed only)
  Buffer instances;                              ///< host-visible Circle array
  VkQueryPool timestamps = VK_NULL_HANDLE;       ///< 2 timestamps around the slot's command buffer
  std::int64_t timed_frame = -1;                 ///< draw serial whose timestamps are unread; -1: none
};

/// Test-only fault injection (RendererConfig::fault, renderer/README.md): device_lost@N,
/// surface_lost@N, out_of_date@N or out_of_date_every makes the frame cycle report that
/// VkResult at frame N (0-based: the frames drawn before it) as if the driver had returned it.
struct Fault {
  enum Kind { none, device_lost, surface_lost, out_of_date, out_of_date_every } kind = none;
  std::int64_t frame = 0;

  /// The fault `text` names (empty: none); throws Error for a malformed value.
  static Fault parse(std::string_view text) {
    if (text.empty()) return {};
    const auto bad = [&]() -> Error {
      return Error{"fault injection: expected device_lost@N, surface_lost@N, out_of_date@N or out_of_date_every, got '" +
                   std::string{text} + "'"};
    };
    if (text == "out_of_date_every") return {out_of_date_every, 0};
    const std::size_t at = text.find('@');
    if (at == std::string_view::npos) throw bad();
    const std::string_view name = text.substr(0, at), number = text.substr(at + 1);
    Fault f;
    if (name == "device_lost") f.kind = device_lost;
    else if (name == "surface_lost") f.kind = surface_lost;
    else if (name == "out_of_date") f.kind = out_of_date;
    else throw bad();
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), f.frame);
    if (ec != std::errc{} || end != number.data() + number.size() || f.frame < 0) throw bad();
    return f;
  }
  /// True when `kind` is due at frame `n`.
  bool hits(Kind k, std::int64_t n) const {
    return kind == k && (k == out_of_date_every ? true : frame == n);
  }
};

}  // namespace

struct Renderer::Impl {
  RendererConfig config;
  bool minimized = false;  ///< GLFW_ICONIFIED at the last query
  std::chrono::steady_clock::time_point iconified_checked{};  ///< when it was asked
  std::string capture_error;  ///< why the last capture failed
  GLFWwindow* window = nullptr;
  Context ctx;

  VkSurfaceFormatKHR surface_format{};
  VkFormat color_format = offscreen_format;
  VkPresentModeKHR vk_present_mode = VK_PRESENT_MODE_FIFO_KHR;
  VkRenderPass render_pass = VK_NULL_HANDLE;   ///< final layout PRESENT_SRC (windowed) or TRANSFER_SRC
  VkRenderPass capture_pass = VK_NULL_HANDLE;  ///< windowed only: final layout TRANSFER_SRC
  SpritePipeline pipeline;
  VkCommandPool pool = VK_NULL_HANDLE;

  std::vector<FrameSlot> slots;
  std::uint32_t slot = 0;

  // Render targets: the swapchain's images, or offscreen images (one per slot).
  Swapchain swapchain;
  std::vector<Image> offscreen;
  std::vector<VkImageView> views;  ///< of the current targets, by image index
  std::vector<VkImage> images;
  std::vector<VkFramebuffer> framebuffers;
  std::vector<VkSemaphore> render_finished;  ///< by swapchain image index; grows, never shrinks
  VkExtent2D extent{};

  enum class Phase { idle, acquired, submitted } phase = Phase::idle;
  FrameStatus status;
  bool recreate_pending = false;

  std::uint64_t last_present_id = 0;
  std::uint64_t first_present_id_of_swapchain = 1;

  // GPU timing: timestamp queries around each frame's command buffer (docs/log-format.md, ms_gpu).
  bool gpu_timing = false;               ///< the queue has timestamps (timestampValidBits > 0)
  double timestamp_period_ns = 0;        ///< VkPhysicalDeviceLimits::timestampPeriod
  std::uint64_t timestamp_mask = 0;      ///< the valid bits of a timestamp
  std::uint64_t frames_drawn = 0;        ///< draw() calls so far: the serial of the next frame
  std::vector<GpuTime> gpu_times;        ///< read, not yet taken

  Fault fault;                  ///< RendererConfig::fault, parsed at creation
  std::int64_t frames_begun = 0;  ///< begin_frame() calls that returned true

  struct LastFrame {
    bool valid = false;
    std::uint32_t slot = 0;
    std::uint32_t image = 0;
    std::uint32_t count = 0;
    std::uint32_t clear_rgba = 0;
    std::uint32_t gpu_load = 0;
    VkExtent2D extent{};
  } last;
  Image capture_image;
  VkFramebuffer capture_framebuffer = VK_NULL_HANDLE;

  ~Impl();
  void init(const RendererConfig& cfg, GLFWwindow* win);
  VkExtent2D window_size() const;
  void create_targets();  // framebuffers (and semaphores) for the current images
  void destroy_targets();
  bool recreate_swapchain();
  bool begin_frame();
  void draw(std::span<const Circle> circles, std::uint32_t clear_rgba);
  std::uint64_t present();
  void wait_drawn();
  bool capture(const std::string& path);
  /// Reads slot `s`'s timestamps into gpu_times when its fence has signalled (`signalled`:
  /// the caller just waited on it); never waits.
  void collect_gpu_time(FrameSlot& s, bool signalled);
};

Renderer::Impl::~Impl() {
  VkDevice device = ctx.device;
  if (!device) return;  // Context cleans up the instance / surface it got to
  // Destructors must not throw: log and go on destroying.
  if (const VkResult r = vkDeviceWaitIdle(device); r != VK_SUCCESS)
    logger()->error("renderer: vkDeviceWaitIdle failed: {}", result_name(r));
  if (capture_framebuffer) vkDestroyFramebuffer(device, capture_framebuffer, nullptr);
  destroy(device, capture_image);
  destroy_targets();
  destroy(device, swapchain);
  for (Image& img : offscreen) destroy(device, img);
  for (VkSemaphore s : render_finished) vkDestroySemaphore(device, s, nullptr);
  for (FrameSlot& s : slots) {
    if (s.in_flight) vkDestroyFence(device, s.in_flight, nullptr);
    if (s.image_available) vkDestroySemaphore(device, s.image_available, nullptr);
    if (s.timestamps) vkDestroyQueryPool(device, s.timestamps, nullptr);
    destroy(device, s.instances);
  }
  if (pool) vkDestroyCommandPool(device, pool, nullptr);  // frees the command buffers
  destroy(device, pipeline);
  if (capture_pass) vkDestroyRenderPass(device, capture_pass, nullptr);
  if (render_pass) vkDestroyRenderPass(device, render_pass, nullptr);
}

void Renderer::Impl::init(const RendererConfig& cfg, GLFWwindow* win) {
  config = cfg;
  window = cfg.headless ? nullptr : win;
  if (!cfg.headless && !win) throw Error{"Renderer::create: a window is required unless headless"};
  if (cfg.headless && (cfg.width == 0 || cfg.height == 0))
    throw Error{"Renderer::create: headless size must be non-zero"};
  config.frames_in_flight = std::clamp(cfg.frames_in_flight, 1u, 4u);
  fault = Fault::parse(cfg.fault);
  if (fault.kind != Fault::none) {
    if (!window && fault.kind != Fault::device_lost)
      throw Error{"fault injection: surface_lost and out_of_date need a window (only device_lost works headless)"};
    logger()->warn("renderer: fault injection {} armed (test only)", cfg.fault);
  }

  ctx.init({cfg.validation, cfg.gpu_index, window});
  VkDevice device = ctx.device;

  if (window) {
    surface_format = choose_surface_format(ctx);
    color_format = surface_format.format;
    bool bgra = false;
    if (!capturable(color_format, bgra) || color_format == VK_FORMAT_B8G8R8A8_SRGB ||
        color_format == VK_FORMAT_R8G8B8A8_SRGB)
      logger()->warn("renderer: surface format {} is not 8-bit UNORM: colours may differ from the given rgba",
                   static_cast<int>(color_format));
    const auto modes = supported_present_modes(ctx);
    std::string names;
    for (VkPresentModeKHR m : modes) {
      if (!names.empty()) names += ", ";
      names += m <= VK_PRESENT_MODE_FIFO_RELAXED_KHR ? std::string{to_string(from_vk(m))}
                                                      : "VkPresentModeKHR(" + std::to_string(m) + ")";
    }
    logger()->info("renderer: surface present modes: {}", names);
    vk_present_mode = to_vk(cfg.present_mode);
    if (std::find(modes.begin(), modes.end(), vk_present_mode) == modes.end()) {
      logger()->warn("renderer: present mode {} is not supported here; using fifo", to_string(cfg.present_mode));
      vk_present_mode = VK_PRESENT_MODE_FIFO_KHR;  // the one mode every surface must support
    }
  }

  render_pass = create_render_pass(device, color_format,
                                   window ? VK_IMAGE_LAYOUT_PRESENT_SRC_KHR : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  if (window) capture_pass = create_render_pass(device, color_format, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  pipeline = create_sprite_pipeline(device, render_pass);

  VkCommandPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = ctx.queue_family;
  check(vkCreateCommandPool(device, &pool_info, nullptr, &pool), "vkCreateCommandPool");

  // GPU timing where the queue family writes timestamps; otherwise ms_gpu stays NA.
  {
    std::uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical, &count, families.data());
    const std::uint32_t bits = ctx.queue_family < count ? families[ctx.queue_family].timestampValidBits : 0;
    timestamp_period_ns = static_cast<double>(ctx.properties.limits.timestampPeriod);
    gpu_timing = bits > 0 && timestamp_period_ns > 0;
    timestamp_mask = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    logger()->info("renderer: GPU timing {} (timestampValidBits {}, timestampPeriod {} ns)",
                 gpu_timing ? "on" : "off: the queue family has no timestamps", bits, timestamp_period_ns);
  }

  slots.resize(config.frames_in_flight);
  for (FrameSlot& s : slots) {
    if (gpu_timing) {
      VkQueryPoolCreateInfo query_info{};
      query_info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
      query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
      query_info.queryCount = 2;
      check(vkCreateQueryPool(device, &query_info, nullptr, &s.timestamps), "vkCreateQueryPool");
    }
    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(device, &alloc, &s.cmd), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fence_info{};
    fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    fence_info.flags = VK_FENCE_CREATE_SIGNALED_BIT;  // the first wait returns at once
    check(vkCreateFence(device, &fence_info, nullptr, &s.in_flight), "vkCreateFence");
    if (window) {
      VkSemaphoreCreateInfo sem_info{};
      sem_info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
      check(vkCreateSemaphore(device, &sem_info, nullptr, &s.image_available), "vkCreateSemaphore");
    }
    s.instances = create_host_buffer(ctx, 1024 * sizeof(Circle), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  }

  if (window) {
    if (!create_swapchain(ctx, surface_format, vk_present_mode, window_size(), VK_NULL_HANDLE, swapchain)) {
      // Created minimized: begin_frame() creates the swapchain once the window has a size.
      recreate_pending = true;
      logger()->info("renderer: window is 0x0; the swapchain is created when it has a size");
    } else {
      images = swapchain.images;
      views = swapchain.views;
      extent = swapchain.extent;
      create_targets();
    }
  } else {
    extent = {cfg.width, cfg.height};
    for (std::size_t i = 0; i < slots.size(); ++i) {
      offscreen.push_back(create_color_image(
          ctx, offscreen_format, extent, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT));
      images.push_back(offscreen.back().image);
      views.push_back(offscreen.back().view);
    }
    create_targets();
  }
  logger()->info("renderer: {} {}x{}, present mode {}, {} frames in flight, {} images", window ? "swapchain" : "offscreen",
               extent.width, extent.height, window ? to_string(from_vk(vk_present_mode)) : "none (headless)",
               slots.size(), images.size());
}

VkExtent2D Renderer::Impl::window_size() const {
  int w = 0;
  int h = 0;
  glfwGetFramebufferSize(window, &w, &h);
  return {static_cast<std::uint32_t>(std::max(w, 0)), static_cast<std::uint32_t>(std::max(h, 0))};
}

void Renderer::Impl::create_targets() {
  for (VkImageView view : views) framebuffers.push_back(create_framebuffer(ctx.device, render_pass, view, extent));
  // Semaphores are kept across recreations: after the wait idle in recreate_swapchain() none
  // has a pending signal, and a present that waited on one has executed its wait (even a
  // present rejected as out of date still performs its semaphore wait).
  while (window && render_finished.size() < images.size()) {
    VkSemaphoreCreateInfo sem_info{};
    sem_info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    VkSemaphore s = VK_NULL_HANDLE;
    check(vkCreateSemaphore(ctx.device, &sem_info, nullptr, &s), "vkCreateSemaphore");
    render_finished.push_back(s);
  }
}

void Renderer::Impl::destroy_targets() {
  for (VkFramebuffer fb : framebuffers) vkDestroyFramebuffer(ctx.device, fb, nullptr);
  framebuffers.clear();
}

bool Renderer::Impl::recreate_swapchain() {
  if (const VkExtent2D size = window_size(); size.width == 0 || size.height == 0) return false;
  // Nothing may still use the old images, views or framebuffers, and every slot's fence is
  // then signalled. No image-available semaphore is pending either: a successful acquire is
  // always followed by the submit that waits on it, and a failed one signals nothing.
  check(vkDeviceWaitIdle(ctx.device), "vkDeviceWaitIdle (swapchain recreation)");
  Swapchain next;
  if (!create_swapchain(ctx, surface_format, vk_present_mode, window_size(), swapchain.handle, next))
    return false;  // minimized between the two queries; keep the old swapchain for now
  destroy_targets();
  destroy(ctx.device, swapchain);  // retired by oldSwapchain; its images are no longer acquired
  swapchain = std::move(next);
  images = swapchain.images;
  views = swapchain.views;
  extent = swapchain.extent;
  create_targets();
  ++status.swapchain_generation;
  first_present_id_of_swapchain = last_present_id + 1;
  logger()->info("renderer: swapchain recreated: {}x{}, present mode {}, {} images", extent.width, extent.height,
               to_string(from_vk(vk_present_mode)), images.size());
  return true;
}

bool Renderer::Impl::begin_frame() {
  if (phase != Phase::idle)
    throw Error{phase == Phase::acquired ? "begin_frame: the previous frame was not drawn"
                                         : "begin_frame: the previous frame was not presented"};
  FrameSlot& s = slots[slot];
  // Fault injection, device_lost@N: the wait for frame N's slot reports a lost device.
  check(fault.hits(Fault::device_lost, frames_begun) ? VK_ERROR_DEVICE_LOST
                                                     : vkWaitForFences(ctx.device, 1, &s.in_flight, VK_TRUE, UINT64_MAX),
        "vkWaitForFences");
  collect_gpu_time(s, true);  // before draw() resets its queries

  if (!window) {
    status.kind = FrameStatus::ok;
    status.image_index = slot;
    phase = Phase::acquired;
    ++frames_begun;
    return true;
  }

  // Minimized (iconified): nothing is seen. On X11 the window keeps its size, so the 0x0 test
  // below never fires there: draw nothing until it is restored. Asking GLFW is a round trip
  // to the X server: at most every 50 ms while drawing (a minimize is seen that late at
  // most), every call while minimized (the caller waits for events between them).
  const auto now = std::chrono::steady_clock::now();
  if (minimized || now - iconified_checked >= std::chrono::milliseconds{50}) {
    iconified_checked = now;
    if (const bool iconified = glfwGetWindowAttrib(window, GLFW_ICONIFIED) == GLFW_TRUE; iconified != minimized) {
      minimized = iconified;
      logger()->info(iconified ? "renderer: window minimized: drawing nothing until it is restored"
                                    : "renderer: window restored");
    }
  }
  if (minimized) {
    status.kind = FrameStatus::skipped_minimized;
    return false;
  }
  if (recreate_pending || !swapchain.handle) {
    if (!recreate_swapchain()) {  // 0x0: no swapchain can be made; draw nothing until resized
      status.kind = FrameStatus::skipped_minimized;
      return false;
    }
    recreate_pending = false;
  }

  std::uint32_t index = 0;
  // Fault injection, surface_lost@N: frame N's acquire reports a lost surface (nothing acquired).
  const VkResult r = fault.hits(Fault::surface_lost, frames_begun)
                         ? VK_ERROR_SURFACE_LOST_KHR
                         : vkAcquireNextImageKHR(ctx.device, swapchain.handle, UINT64_MAX, s.image_available,
                                                 VK_NULL_HANDLE, &index);
  if (r == VK_ERROR_OUT_OF_DATE_KHR) {
    // No image was acquired and the semaphore will not be signalled, so skipping this frame
    // leaves nothing pending; the next begin_frame() recreates the swapchain first.
    recreate_pending = true;
    status.kind = FrameStatus::skipped_out_of_date;
    return false;
  }
  if (r == VK_SUBOPTIMAL_KHR) {
    // An image WAS acquired and the semaphore will be signalled: this frame must be drawn and
    // presented to consume both. Recreate before the next one.
    recreate_pending = true;
  } else {
    check(r, "vkAcquireNextImageKHR");
  }
  status.kind = FrameStatus::ok;
  status.image_index = index;
  phase = Phase::acquired;
  ++frames_begun;
  return true;
}

void Renderer::Impl::draw(std::span<const Circle> circles, std::uint32_t clear_rgba) {
  if (phase != Phase::acquired) throw Error{"draw: begin_frame() did not return true for this frame"};
  FrameSlot& s = slots[slot];
  const std::uint32_t image = status.image_index;

  // With a GPU load, a sprite covering the whole frame in the (opaque) clear colour goes
  // first, so that every pixel runs the load loop at least once: the cost then scales with
  // the frame's size, not with how much of it the circles happen to cover.
  const bool background = config.gpu_load > 0;
  const std::size_t count_all = circles.size() + (background ? 1 : 0);
  const VkDeviceSize bytes = count_all * sizeof(Circle);
  // The slot's fence was waited on in begin_frame(): its buffer is not in use any more.
  if (bytes > s.instances.size) {
    destroy(ctx.device, s.instances);
    s.instances = create_host_buffer(ctx, std::max(bytes, 2 * s.instances.size), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  }
  auto* dst = static_cast<Circle*>(s.instances.mapped);
  if (background) {
    const float w = static_cast<float>(extent.width);
    const float h = static_cast<float>(extent.height);
    *dst++ = Circle{w / 2, h / 2, std::sqrt(w * w + h * h) / 2 + 1, clear_rgba | 0xffu};
  }
  if (!circles.empty()) std::memcpy(dst, circles.data(), circles.size_bytes());
  const auto count = static_cast<std::uint32_t>(count_all);

  check(vkResetCommandBuffer(s.cmd, 0), "vkResetCommandBuffer");
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(s.cmd, &begin), "vkBeginCommandBuffer");
  // The frame's GPU time: from the top of the pipe before its work to the bottom after it.
  // begin_frame() read the slot's previous results after its fence wait, so they may be reset.
  if (s.timestamps) {
    vkCmdResetQueryPool(s.cmd, s.timestamps, 0, 2);
    vkCmdWriteTimestamp(s.cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, s.timestamps, 0);
  }
  record_sprites(s.cmd, pipeline,
                 {render_pass, framebuffers[image], extent, s.instances.buffer, count, clear_rgba, config.gpu_load});
  if (s.timestamps) vkCmdWriteTimestamp(s.cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s.timestamps, 1);
  check(vkEndCommandBuffer(s.cmd), "vkEndCommandBuffer");

  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  if (window) {
    submit.waitSemaphoreCount = 1;
    submit.pWaitSemaphores = &s.image_available;
    submit.pWaitDstStageMask = &wait_stage;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &render_finished[image];
  }
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &s.cmd;
  // Reset only now that a submit will signal it again: an early return or throw above must
  // not leave begin_frame() waiting forever on an unsignalled fence.
  check(vkResetFences(ctx.device, 1, &s.in_flight), "vkResetFences");
  check(vkQueueSubmit(ctx.queue, 1, &submit, s.in_flight), "vkQueueSubmit");
  s.timed_frame = s.timestamps ? static_cast<std::int64_t>(frames_drawn) : -1;
  ++frames_drawn;

  last = {true, slot, image, count, clear_rgba, config.gpu_load, extent};
  phase = Phase::submitted;
}

void Renderer::Impl::wait_drawn() {
  if (phase != Phase::submitted) throw Error{"wait_drawn: draw() was not called for this frame"};
  FrameSlot& s = slots[slot];
  check(vkWaitForFences(ctx.device, 1, &s.in_flight, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  collect_gpu_time(s, true);
}

void Renderer::Impl::collect_gpu_time(FrameSlot& s, bool signalled) {
  if (s.timed_frame < 0) return;
  if (!signalled) {
    const VkResult status_now = vkGetFenceStatus(ctx.device, s.in_flight);
    if (status_now == VK_NOT_READY) return;  // still on the GPU: read it later
    check(status_now, "vkGetFenceStatus");
  }
  std::uint64_t stamps[2] = {0, 0};
  // The fence has signalled, so both timestamps are available: no WAIT flag, never a stall.
  const VkResult r = vkGetQueryPoolResults(ctx.device, s.timestamps, 0, 2, sizeof stamps, stamps,
                                           sizeof(std::uint64_t), VK_QUERY_RESULT_64_BIT);
  const auto frame = static_cast<std::uint64_t>(s.timed_frame);
  s.timed_frame = -1;
  if (r == VK_NOT_READY) return;  // not expected after the fence; the frame goes without a GPU time
  check(r, "vkGetQueryPoolResults");
  const std::uint64_t ticks = (stamps[1] - stamps[0]) & timestamp_mask;
  const double ns = static_cast<double>(ticks) * timestamp_period_ns;
  gpu_times.push_back({frame, std::chrono::nanoseconds{static_cast<std::int64_t>(std::llround(ns))}});
}

std::uint64_t Renderer::Impl::present() {
  if (phase != Phase::submitted) throw Error{"present: draw() was not called for this frame"};
  phase = Phase::idle;
  const std::uint32_t image = status.image_index;
  slot = (slot + 1) % static_cast<std::uint32_t>(slots.size());
  if (!window) return 0;

  std::uint64_t id = 0;
  VkPresentIdKHR present_id{};
  present_id.sType = VK_STRUCTURE_TYPE_PRESENT_ID_KHR;
  present_id.swapchainCount = 1;
  present_id.pPresentIds = &id;
  VkPresentInfoKHR info{};
  info.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
  if (ctx.present_wait) {
    id = ++last_present_id;
    info.pNext = &present_id;
  }
  info.waitSemaphoreCount = 1;
  info.pWaitSemaphores = &render_finished[image];
  info.swapchainCount = 1;
  info.pSwapchains = &swapchain.handle;
  info.pImageIndices = &image;
  VkResult r = vkQueuePresentKHR(ctx.queue, &info);
  // Fault injection, out_of_date@N / out_of_date_every: frame N's (every frame's) present, made,
  // reports an out-of-date swapchain, as a resize does: the image was released and the
  // semaphore waited on, exactly as the real error leaves them.
  const std::int64_t frame = frames_begun - 1;
  if (r == VK_SUCCESS &&
      (fault.hits(Fault::out_of_date, frame) || fault.hits(Fault::out_of_date_every, frame)))
    r = VK_ERROR_OUT_OF_DATE_KHR;
  if (r == VK_ERROR_OUT_OF_DATE_KHR) {
    // Not shown, but the semaphore wait still executes (the spec says so for this error) and
    // the image is released: recreate before the next frame. Nothing to wait on: id 0.
    recreate_pending = true;
    return 0;
  }
  if (r == VK_SUBOPTIMAL_KHR) {
    recreate_pending = true;  // shown, but the swapchain no longer matches the surface
  } else {
    check(r, "vkQueuePresentKHR");
  }
  return id;
}

bool Renderer::Impl::capture(const std::string& path) {
  if (!last.valid) {
    capture_error = "no frame has been drawn yet";
    logger()->error("capture: {}", capture_error);
    return false;
  }
  bool bgra = false;
  if (!capturable(color_format, bgra)) {
    capture_error = "format " + std::to_string(static_cast<int>(color_format)) + " cannot be written as PPM";
    logger()->error("capture: {}", capture_error);
    return false;
  }
  try {
    check(vkDeviceWaitIdle(ctx.device), "vkDeviceWaitIdle (capture)");
    std::vector<std::uint8_t> pixels;
    if (!window) {
      // The offscreen image itself, left in TRANSFER_SRC_OPTIMAL by the render pass. It is
      // rewritten only by a later draw() into the same image, which updates `last`.
      pixels = read_back(ctx, pool, images[last.image], last.extent, {});
    } else {
      // A presented image belongs to the presentation engine; reading it is not allowed.
      // Render the same frame again (same instances, clear, load, extent, format, pipeline)
      // into an image of our own and read that.
      if (capture_image.extent.width != last.extent.width || capture_image.extent.height != last.extent.height) {
        if (capture_framebuffer) vkDestroyFramebuffer(ctx.device, capture_framebuffer, nullptr);
        capture_framebuffer = VK_NULL_HANDLE;
        destroy(ctx.device, capture_image);
        capture_image = create_color_image(ctx, color_format, last.extent,
                                           VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
        capture_framebuffer = create_framebuffer(ctx.device, capture_pass, capture_image.view, last.extent);
      }
      const SpriteDraw again{capture_pass, capture_framebuffer,     last.extent,   slots[last.slot].instances.buffer,
                             last.count,   last.clear_rgba,         last.gpu_load};
      pixels = read_back(ctx, pool, capture_image.image, last.extent,
                         [&](VkCommandBuffer cmd) { record_sprites(cmd, pipeline, again); });
    }
    if (const std::string why = write_ppm(path, last.extent, pixels, bgra); !why.empty()) {
      capture_error = "writing '" + path + "' failed: " + why;
      logger()->error("capture: {}", capture_error);
      return false;
    }
  } catch (const Error& e) {
    capture_error = e.what();
    logger()->error("capture: {}", e.what());
    return false;
  }
  return true;
}

// --- Renderer: forwards to Impl -------------------------------------------------------------

namespace {
// volk's function tables are the process's: a second Renderer would point every Vulkan call
// at its device, and its end leave the first calling through a destroyed device's table.
std::atomic<bool> renderer_alive{false};
}  // namespace

Renderer::Renderer(std::unique_ptr<Impl> impl) : impl_{std::move(impl)} {}
Renderer::~Renderer() {
  impl_.reset();
  renderer_alive = false;
}

std::unique_ptr<Renderer> Renderer::create(const RendererConfig& config, GLFWwindow* window) {
  if (renderer_alive.exchange(true))
    throw Error{"Renderer::create: another Renderer is alive in this process (volk's function tables are global: one at a time)"};
  try {
    auto impl = std::make_unique<Impl>();
    impl->init(config, window);  // on a throw, ~Impl destroys what was created
    return std::unique_ptr<Renderer>{new Renderer{std::move(impl)}};
  } catch (...) {
    renderer_alive = false;
    throw;
  }
}

bool Renderer::begin_frame() { return impl_->begin_frame(); }
FrameStatus Renderer::frame_status() const { return impl_->status; }
void Renderer::draw(std::span<const Circle> circles, std::uint32_t clear_rgba) { impl_->draw(circles, clear_rgba); }
std::uint64_t Renderer::present() { return impl_->present(); }
void Renderer::wait_drawn() { impl_->wait_drawn(); }
bool Renderer::has_present_wait() const { return impl_->ctx.present_wait; }

bool Renderer::wait_for_present(std::uint64_t present_id, std::chrono::nanoseconds timeout) {
  Impl& m = *impl_;
  if (!m.ctx.present_wait || !m.window || !m.swapchain.handle || present_id == 0) return false;
  // Ids from a replaced swapchain cannot be waited on; ids never presented would block.
  if (present_id < m.first_present_id_of_swapchain || present_id > m.last_present_id) return false;
  const auto ns = static_cast<std::uint64_t>(std::max<std::int64_t>(timeout.count(), 0));
  const VkResult r = vkWaitForPresentKHR(m.ctx.device, m.swapchain.handle, present_id, ns);
  if (r == VK_TIMEOUT) return false;
  if (r == VK_ERROR_OUT_OF_DATE_KHR) {
    m.recreate_pending = true;  // the swapchain can no longer report presents
    return false;
  }
  if (r == VK_SUBOPTIMAL_KHR) {
    m.recreate_pending = true;  // it was shown; the swapchain should still be rebuilt
    return true;
  }
  check(r, "vkWaitForPresentKHR");
  return true;
}

bool Renderer::has_gpu_timing() const { return impl_->gpu_timing; }
std::uint64_t Renderer::frames_drawn() const { return impl_->frames_drawn; }

std::vector<GpuTime> Renderer::take_gpu_times() {
  Impl& m = *impl_;
  for (FrameSlot& s : m.slots) m.collect_gpu_time(s, false);
  std::sort(m.gpu_times.begin(), m.gpu_times.end(),
            [](const GpuTime& a, const GpuTime& b) { return a.frame < b.frame; });
  return std::exchange(m.gpu_times, {});
}

void Renderer::set_gpu_load(std::uint32_t iterations) { impl_->config.gpu_load = iterations; }
std::uint32_t Renderer::gpu_load() const { return impl_->config.gpu_load; }
void Renderer::notify_resized() {
  if (impl_->window) impl_->recreate_pending = true;
}
bool Renderer::capture_ppm(const std::string& path) {
  impl_->capture_error.clear();
  return impl_->capture(path);
}
const std::string& Renderer::capture_error() const { return impl_->capture_error; }
PresentMode Renderer::present_mode() const { return from_vk(impl_->vk_present_mode); }
std::uint32_t Renderer::validation_messages() const { return impl_->ctx.messages.load(std::memory_order_relaxed); }
std::uint32_t Renderer::validation_errors() const { return impl_->ctx.errors.load(std::memory_order_relaxed); }
std::string Renderer::device_name() const { return impl_->ctx.properties.deviceName; }
VkExtent2D Renderer::extent() const { return impl_->extent; }
std::uint32_t Renderer::image_count() const { return static_cast<std::uint32_t>(impl_->images.size()); }
bool Renderer::headless() const { return !impl_->window; }

}  // namespace renderer
