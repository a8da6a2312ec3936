// vk_check.hpp - turning VkResults into renderer::Error.
//
// Every Vulkan call's result goes through check() unless the caller handles a non-success
// code itself (out-of-date and suboptimal swapchains, timeouts), in which case a comment at
// the call says why that code is expected.
#pragma once

#include <volk.h>

namespace renderer::detail {

/// "VK_ERROR_OUT_OF_DATE_KHR" etc.; "VkResult(unknown)" for codes not listed.
const char* result_name(VkResult result);

/// Throws Error("<what> failed: <result name>") unless result is VK_SUCCESS.
void check(VkResult result, const char* what);

}  // namespace renderer::detail
