// context.hpp - the Vulkan instance, debug messenger, surface, physical and logical device.
//
// One graphics queue that can also present (windowed). Device functions are loaded into
// volk's global tables, hence one Context per process at a time.
#pragma once

#include <volk.h>

#include <atomic>
#include <cstdint>
#include <string>

struct GLFWwindow;

namespace renderer::detail {

struct ContextOptions {
  bool validation = false;
  int gpu_index = -1;            ///< -1: prefer discrete, then integrated, virtual, CPU
  GLFWwindow* window = nullptr;  ///< nullptr: headless (no surface, no swapchain extension)
};

class Context {
 public:
  Context() = default;
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  /// Destroys whatever init() created, also after a partial init().
  ~Context();

  /// Throws Error on any failure; the destructor cleans up after a throw.
  void init(const ContextOptions& options);

  /// A memory type index among type_bits with all of the wanted properties; throws if none.
  std::uint32_t memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags wanted) const;

  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memory{};
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  std::uint32_t queue_family = 0;
  bool present_wait = false;  ///< VK_KHR_present_id + VK_KHR_present_wait enabled

  std::atomic<std::uint32_t> messages{0};  ///< validation warnings + errors
  std::atomic<std::uint32_t> errors{0};    ///< validation errors
};

/// A buffer with its own memory; host-visible ones stay mapped (coherent memory).
struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  void* mapped = nullptr;
};
Buffer create_host_buffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage);
void destroy(VkDevice device, Buffer& buffer);

/// A 2D single-sample colour image in device-local memory, with a view.
struct Image {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkExtent2D extent{};
};
Image create_color_image(const Context& ctx, VkFormat format, VkExtent2D extent, VkImageUsageFlags usage);
void destroy(VkDevice device, Image& image);

VkImageView create_color_view(VkDevice device, VkImage image, VkFormat format);

}  // namespace renderer::detail
