// swapchain.hpp - choosing the surface format and present mode, (re)creating the swapchain.
//
// Modelled on niagara's swapchain.cpp: a 0x0 surface (minimized) creates nothing, and a
// resize builds the new swapchain with oldSwapchain so the presentation engine can hand over.
#pragma once

#include <volk.h>

#include <vector>

#include "context.hpp"
#include "renderer/renderer.hpp"

namespace renderer::detail {

struct Swapchain {
  VkSwapchainKHR handle = VK_NULL_HANDLE;
  VkExtent2D extent{};
  std::vector<VkImage> images;
  std::vector<VkImageView> views;
};

/// An 8-bit UNORM BGRA/RGBA format if the surface offers one (so 0xRRGGBBAA colours reach
/// the screen unchanged), else the first format offered.
VkSurfaceFormatKHR choose_surface_format(const Context& ctx);

/// The present modes the surface supports.
std::vector<VkPresentModeKHR> supported_present_modes(const Context& ctx);

VkPresentModeKHR to_vk(PresentMode mode);
PresentMode from_vk(VkPresentModeKHR mode);

/// Creates a swapchain sized to the surface (window_size where the surface leaves the size
/// to the swapchain). Returns false, creating nothing, when the size is 0x0 (minimized).
/// old: the swapchain being replaced, or VK_NULL_HANDLE; the caller destroys it afterwards.
bool create_swapchain(const Context& ctx, VkSurfaceFormatKHR format, VkPresentModeKHR mode, VkExtent2D window_size,
                      VkSwapchainKHR old, Swapchain& out);

void destroy(VkDevice device, Swapchain& swapchain);

}  // namespace renderer::detail
