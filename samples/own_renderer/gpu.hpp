// own_renderer/gpu.hpp - the game's own small Vulkan renderer: instance, device, swapchain,
// one pipeline drawing coloured triangles from the game's vertex buffers. It knows nothing
// of pacing or of the engine: begin() acquires, draw() records and submits, present()
// presents. Two frames in flight; the swapchain is recreated when out of date or resized.
#pragma once

#include <vulkan/vulkan_core.h>  // types only: VK_NO_PROTOTYPES (fp_volk), calls through volk

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

struct GLFWwindow;

namespace own {

/// The game's vertex: a position in framebuffer pixels and an RGBA8 colour.
struct Vertex {
  float x = 0, y = 0;
  std::uint8_t rgba[4] = {255, 255, 255, 255};
};

struct GpuConfig {
  bool validation = false;
  VkPresentModeKHR present_mode = VK_PRESENT_MODE_FIFO_KHR;  ///< fifo if the surface lacks it
};

class Gpu {
 public:
  /// Throws std::runtime_error naming the Vulkan call that failed.
  Gpu(GLFWwindow* window, const GpuConfig& config);
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  /// Waits for this frame slot, acquires an image. false: nothing to draw now (minimized or
  /// the swapchain was just recreated: try again).
  bool begin();
  /// Records and submits: clears to `clear`, draws `vertices` as a triangle list.
  void draw(std::span<const Vertex> vertices, const float clear[4]);
  /// Blocks until the GPU finished the frame draw() submitted.
  void wait_drawn();
  /// Queues the present; an out-of-date swapchain is recreated before the next frame.
  void present();
  /// The window's framebuffer changed size.
  void notify_resized() { resized_ = true; }

  VkExtent2D extent() const { return extent_; }
  std::uint32_t image_count() const { return static_cast<std::uint32_t>(images_.size()); }
  VkPresentModeKHR present_mode() const { return present_mode_; }
  const char* device_name() const { return properties_.deviceName; }
  /// Validation warnings and errors so far (0 without validation).
  std::uint32_t validation_messages() const { return messages_.load(); }

 private:
  struct Slot {
    VkCommandBuffer commands = VK_NULL_HANDLE;
    VkFence done = VK_NULL_HANDLE;
    VkSemaphore acquired = VK_NULL_HANDLE;
    VkBuffer vertices = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
    VkDeviceSize capacity = 0;  ///< vertices the buffer holds
  };
  static constexpr std::uint32_t frames_in_flight = 2;

  void create_device();
  void create_pipeline();
  bool create_swapchain();  ///< false: the framebuffer is 0x0
  void destroy_swapchain(bool keep_handle);
  void recreate_swapchain();
  void reserve(Slot& slot, std::size_t vertices);
  void release();
  static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT types,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);

  GLFWwindow* window_;
  GpuConfig config_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  std::uint32_t family_ = 0;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkSurfaceFormatKHR format_{};
  VkPresentModeKHR present_mode_ = VK_PRESENT_MODE_FIFO_KHR;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  VkExtent2D extent_{};
  std::vector<VkImage> images_;
  std::vector<VkImageView> views_;
  std::vector<VkFramebuffer> framebuffers_;
  std::vector<VkSemaphore> rendered_;  ///< per swapchain image: the present waits on it
  Slot slots_[frames_in_flight];
  std::uint32_t slot_ = 0;
  std::uint32_t image_ = 0;
  bool resized_ = false;
  bool stale_ = false;  ///< recreate the swapchain before the next acquire
  std::atomic<std::uint32_t> messages_{0};
};

}  // namespace own
