#include "capture.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

#include "vk_check.hpp"

namespace renderer::detail {

bool capturable(VkFormat format, bool& bgra) {
  switch (format) {
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB: bgra = true; return true;
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB: bgra = false; return true;
    default: return false;
  }
}

std::vector<std::uint8_t> read_back(const Context& ctx, VkCommandPool pool, VkImage image, VkExtent2D extent,
                                    const std::function<void(VkCommandBuffer)>& record_before) {
  const VkDeviceSize bytes = VkDeviceSize{extent.width} * extent.height * 4;
  Buffer buffer = create_host_buffer(ctx, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  std::vector<std::uint8_t> pixels;
  try {
    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(ctx.device, &alloc, &cmd), "vkAllocateCommandBuffers (capture)");
    VkFenceCreateInfo fence_info{};
    fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    check(vkCreateFence(ctx.device, &fence_info, nullptr, &fence), "vkCreateFence (capture)");

    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer (capture)");
    if (record_before) record_before(cmd);
    // The image was written by a render pass, perhaps in an earlier submission: make those
    // writes visible to the copy (the layout stays TRANSFER_SRC_OPTIMAL).
    VkImageMemoryBarrier to_copy{};
    to_copy.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
    to_copy.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    to_copy.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    to_copy.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    to_copy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    to_copy.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_copy.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_copy.image = image;
    to_copy.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                         nullptr, 0, nullptr, 1, &to_copy);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {extent.width, extent.height, 1};
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer.buffer, 1, &region);
    VkBufferMemoryBarrier to_host{};
    to_host.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
    to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    to_host.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_host.buffer = buffer.buffer;
    to_host.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, nullptr, 1, &to_host, 0,
                         nullptr);
    check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer (capture)");

    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    check(vkQueueSubmit(ctx.queue, 1, &submit, fence), "vkQueueSubmit (capture)");
    check(vkWaitForFences(ctx.device, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences (capture)");
    const auto* data = static_cast<const std::uint8_t*>(buffer.mapped);  // coherent: no invalidate
    pixels.assign(data, data + bytes);
  } catch (...) {
    // Only reached before the submit or after a failed wait; wait idle so nothing is in use.
    vkDeviceWaitIdle(ctx.device);
    if (fence) vkDestroyFence(ctx.device, fence, nullptr);
    if (cmd) vkFreeCommandBuffers(ctx.device, pool, 1, &cmd);
    destroy(ctx.device, buffer);
    throw;
  }
  vkDestroyFence(ctx.device, fence, nullptr);
  vkFreeCommandBuffers(ctx.device, pool, 1, &cmd);
  destroy(ctx.device, buffer);
  return pixels;
}

std::string write_ppm(const std::string& path, VkExtent2D extent, const std::vector<std::uint8_t>& pixels, bool bgra) {
  const auto reason = [] { return std::string{errno != 0 ? std::strerror(errno) : "write error"}; };
  errno = 0;
  std::ofstream out{path, std::ios::binary};
  if (!out) return reason();
  // std::to_string, not the stream's <<: a host's global C++ locale would group 1280 as "1.280".
  out << "P6\n" + std::to_string(extent.width) + ' ' + std::to_string(extent.height) + "\n255\n";
  std::vector<char> row(std::size_t{extent.width} * 3);
  for (std::size_t y = 0; y < extent.height; ++y) {
    const std::uint8_t* src = pixels.data() + y * extent.width * 4;
    for (std::size_t x = 0; x < extent.width; ++x) {
      const std::uint8_t* p = src + x * 4;
      row[x * 3 + 0] = static_cast<char>(bgra ? p[2] : p[0]);
      row[x * 3 + 1] = static_cast<char>(p[1]);
      row[x * 3 + 2] = static_cast<char>(bgra ? p[0] : p[2]);
    }
    out.write(row.data(), static_cast<std::streamsize>(row.size()));
  }
  out.flush();
  return out ? std::string{} : reason();
}

}  // namespace renderer::detail
