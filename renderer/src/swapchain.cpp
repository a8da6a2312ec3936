#include "swapchain.hpp"

#include <algorithm>

#include "vk_check.hpp"

namespace renderer::detail {

VkSurfaceFormatKHR choose_surface_format(const Context& ctx) {
  std::uint32_t count = 0;
  check(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physical, ctx.surface, &count, nullptr),
        "vkGetPhysicalDeviceSurfaceFormatsKHR");
  std::vector<VkSurfaceFormatKHR> formats(count);
  check(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physical, ctx.surface, &count, formats.data()),
        "vkGetPhysicalDeviceSurfaceFormatsKHR");
  formats.resize(count);
  if (formats.empty()) throw Error{"the surface offers no formats", VK_ERROR_FORMAT_NOT_SUPPORTED};
  for (VkFormat wanted : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM})
    for (const VkSurfaceFormatKHR& f : formats)
      if (f.format == wanted && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) return f;
  return formats.front();
}

std::vector<VkPresentModeKHR> supported_present_modes(const Context& ctx) {
  std::uint32_t count = 0;
  check(vkGetPhysicalDeviceSurfacePresentModesKHR(ctx.physical, ctx.surface, &count, nullptr),
        "vkGetPhysicalDeviceSurfacePresentModesKHR");
  std::vector<VkPresentModeKHR> modes(count);
  check(vkGetPhysicalDeviceSurfacePresentModesKHR(ctx.physical, ctx.surface, &count, modes.data()),
        "vkGetPhysicalDeviceSurfacePresentModesKHR");
  modes.resize(count);
  return modes;
}

VkPresentModeKHR to_vk(PresentMode mode) {
  switch (mode) {
    case PresentMode::fifo: return VK_PRESENT_MODE_FIFO_KHR;
    case PresentMode::fifo_relaxed: return VK_PRESENT_MODE_FIFO_RELAXED_KHR;
    case PresentMode::mailbox: return VK_PRESENT_MODE_MAILBOX_KHR;
    case PresentMode::immediate: return VK_PRESENT_MODE_IMMEDIATE_KHR;
  }
  return VK_PRESENT_MODE_FIFO_KHR;
}

PresentMode from_vk(VkPresentModeKHR mode) {
  switch (mode) {
    case VK_PRESENT_MODE_FIFO_RELAXED_KHR: return PresentMode::fifo_relaxed;
    case VK_PRESENT_MODE_MAILBOX_KHR: return PresentMode::mailbox;
    case VK_PRESENT_MODE_IMMEDIATE_KHR: return PresentMode::immediate;
    default: return PresentMode::fifo;
  }
}

bool create_swapchain(const Context& ctx, VkSurfaceFormatKHR format, VkPresentModeKHR mode, VkExtent2D window_size,
                      VkSwapchainKHR old, Swapchain& out) {
  VkSurfaceCapabilitiesKHR caps{};
  check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx.physical, ctx.surface, &caps),
        "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");

  VkExtent2D extent = caps.currentExtent;
  if (extent.width == 0xFFFFFFFFu) {  // the surface takes its size from the swapchain
    extent.width = std::clamp(window_size.width, caps.minImageExtent.width, caps.maxImageExtent.width);
    extent.height = std::clamp(window_size.height, caps.minImageExtent.height, caps.maxImageExtent.height);
  }
  if (extent.width == 0 || extent.height == 0) return false;  // minimized: no swapchain can exist

  // One more than the minimum, so the CPU can acquire while the display holds the others.
  std::uint32_t image_count = caps.minImageCount + 1;
  if (caps.maxImageCount != 0) image_count = std::min(image_count, caps.maxImageCount);

  // Opaque if the surface allows it, else the first mode it has.
  VkCompositeAlphaFlagBitsKHR alpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  for (VkCompositeAlphaFlagBitsKHR candidate :
       {VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
        VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR, VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR}) {
    if (caps.supportedCompositeAlpha & static_cast<VkCompositeAlphaFlagsKHR>(candidate)) {
      alpha = candidate;
      break;
    }
  }

  VkSwapchainCreateInfoKHR info{};
  info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR;
  info.surface = ctx.surface;
  info.minImageCount = image_count;
  info.imageFormat = format.format;
  info.imageColorSpace = format.colorSpace;
  info.imageExtent = extent;
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = caps.currentTransform;
  info.compositeAlpha = alpha;
  info.presentMode = mode;
  info.clipped = VK_TRUE;
  info.oldSwapchain = old;

  Swapchain sc;
  sc.extent = extent;
  check(vkCreateSwapchainKHR(ctx.device, &info, nullptr, &sc.handle), "vkCreateSwapchainKHR");
  try {
    std::uint32_t count = 0;
    check(vkGetSwapchainImagesKHR(ctx.device, sc.handle, &count, nullptr), "vkGetSwapchainImagesKHR");
    sc.images.resize(count);
    check(vkGetSwapchainImagesKHR(ctx.device, sc.handle, &count, sc.images.data()), "vkGetSwapchainImagesKHR");
    sc.images.resize(count);
    for (VkImage image : sc.images) sc.views.push_back(create_color_view(ctx.device, image, format.format));
  } catch (...) {
    destroy(ctx.device, sc);
    throw;
  }
  out = std::move(sc);
  return true;
}

void destroy(VkDevice device, Swapchain& swapchain) {
  for (VkImageView view : swapchain.views) vkDestroyImageView(device, view, nullptr);
  if (swapchain.handle) vkDestroySwapchainKHR(device, swapchain.handle, nullptr);
  swapchain = {};
}

}  // namespace renderer::detail
