#include "vk_check.hpp"

#include <string>

#include "renderer/renderer.hpp"

namespace renderer {

namespace {
// Names the VkResult unless the message already does (check() puts it after "failed: ").
std::string with_result(const std::string& what, VkResult result) {
  if (result == VK_SUCCESS) return what;
  const std::string name = detail::result_name(result);
  return what.find(name) == std::string::npos ? what + " (" + name + ")" : what;
}
}  // namespace

Error::Error(const std::string& what, VkResult result) : std::runtime_error{with_result(what, result)}, result_{result} {}

namespace detail {

const char* result_name(VkResult result) {
  switch (result) {
#define FP_RESULT_CASE(x) \
  case x: return #x;
    FP_RESULT_CASE(VK_SUCCESS)
    FP_RESULT_CASE(VK_NOT_READY)
    FP_RESULT_CASE(VK_TIMEOUT)
    FP_RESULT_CASE(VK_EVENT_SET)
    FP_RESULT_CASE(VK_EVENT_RESET)
    FP_RESULT_CASE(VK_INCOMPLETE)
    FP_RESULT_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    FP_RESULT_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    FP_RESULT_CASE(VK_ERROR_INITIALIZATION_FAILED)
    FP_RESULT_CASE(VK_ERROR_DEVICE_LOST)
    FP_RESULT_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    FP_RESULT_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    FP_RESULT_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    FP_RESULT_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    FP_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    FP_RESULT_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    FP_RESULT_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    FP_RESULT_CASE(VK_ERROR_FRAGMENTED_POOL)
    FP_RESULT_CASE(VK_ERROR_UNKNOWN)
    FP_RESULT_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    FP_RESULT_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    FP_RESULT_CASE(VK_ERROR_FRAGMENTATION)
    FP_RESULT_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    FP_RESULT_CASE(VK_PIPELINE_COMPILE_REQUIRED)
    FP_RESULT_CASE(VK_ERROR_SURFACE_LOST_KHR)
    FP_RESULT_CASE(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
    FP_RESULT_CASE(VK_SUBOPTIMAL_KHR)
    FP_RESULT_CASE(VK_ERROR_OUT_OF_DATE_KHR)
    FP_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DISPLAY_KHR)
    FP_RESULT_CASE(VK_ERROR_VALIDATION_FAILED_EXT)
    FP_RESULT_CASE(VK_ERROR_INVALID_SHADER_NV)
    FP_RESULT_CASE(VK_ERROR_FULL_SCREEN_EXCLUSIVE_MODE_LOST_EXT)
#undef FP_RESULT_CASE
    default: return "VkResult(unknown)";
  }
}

void check(VkResult result, const char* what) {
  if (result == VK_SUCCESS) return;
  throw Error{std::string{what} + " failed: " + result_name(result), result};
}

}  // namespace detail
}  // namespace renderer
