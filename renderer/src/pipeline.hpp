// pipeline.hpp - the render pass and the instanced circle-sprite pipeline, and recording a frame.
#pragma once

#include <volk.h>

#include <cstdint>

namespace renderer::detail {

/// Per-instance vertex data: exactly renderer::Circle's layout.
inline constexpr std::uint32_t instance_stride = 16;

/// One colour attachment, cleared on load, stored, left in final_layout
/// (PRESENT_SRC_KHR for the swapchain, TRANSFER_SRC_OPTIMAL for images read back).
VkRenderPass create_render_pass(VkDevice device, VkFormat format, VkImageLayout final_layout);

struct SpritePipeline {
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
};
/// Usable with any render pass compatible with render_pass (same format, one attachment).
SpritePipeline create_sprite_pipeline(VkDevice device, VkRenderPass render_pass);
void destroy(VkDevice device, SpritePipeline& pipeline);

VkFramebuffer create_framebuffer(VkDevice device, VkRenderPass render_pass, VkImageView view, VkExtent2D extent);

struct SpriteDraw {
  VkRenderPass render_pass = VK_NULL_HANDLE;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  VkExtent2D extent{};
  VkBuffer instances = VK_NULL_HANDLE;
  std::uint32_t count = 0;
  std::uint32_t clear_rgba = 0;
  std::uint32_t gpu_load = 0;
};
/// Records the render pass: clear, then count instanced quads (4 vertices each).
void record_sprites(VkCommandBuffer cmd, const SpritePipeline& pipeline, const SpriteDraw& draw);

}  // namespace renderer::detail
