// capture.hpp - reading a rendered image back to the host and writing it as a PPM.
#pragma once

#include <volk.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "context.hpp"

namespace renderer::detail {

/// 8-bit four-channel UNORM/SRGB formats capture can convert; bgra is set for B8G8R8A8.
bool capturable(VkFormat format, bool& bgra);

/// Records record_before (e.g. the render pass that fills image) and a copy of image to a
/// host buffer into one command buffer from pool, submits it, waits for it and returns
/// width * height * 4 bytes, tightly packed. image must end up in TRANSFER_SRC_OPTIMAL with
/// its colour-attachment writes complete (the render pass's outgoing dependency). Throws Error.
std::vector<std::uint8_t> read_back(const Context& ctx, VkCommandPool pool, VkImage image, VkExtent2D extent,
                                    const std::function<void(VkCommandBuffer)>& record_before);

/// Writes a binary PPM (P6, maxval 255) from tightly packed RGBA (or BGRA) pixels; alpha is
/// dropped. Returns false when the file cannot be written.
/// Empty when written, else why not (the system's reason).
std::string write_ppm(const std::string& path, VkExtent2D extent, const std::vector<std::uint8_t>& pixels, bool bgra);

}  // namespace renderer::detail
