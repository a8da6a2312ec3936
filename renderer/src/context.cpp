#include "context.hpp"
#include "renderer/log.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "renderer/renderer.hpp"
#include "vk_check.hpp"

namespace renderer::detail {
namespace {

constexpr const char* validation_layer = "VK_LAYER_KHRONOS_validation";

VKAPI_ATTR VkBool32 VKAPI_CALL on_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                VkDebugUtilsMessageTypeFlagsEXT /*types*/,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* ctx = static_cast<Context*>(user);
  const char* text = data && data->pMessage ? data->pMessage : "(no message)";
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
    ctx->errors.fetch_add(1, std::memory_order_relaxed);
    ctx->messages.fetch_add(1, std::memory_order_relaxed);
    logger()->error("vulkan: {}", text);
  } else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    ctx->messages.fetch_add(1, std::memory_order_relaxed);
    logger()->warn("vulkan: {}", text);
  } else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT) {
    logger()->debug("vulkan: {}", text);
  } else {
    logger()->trace("vulkan: {}", text);
  }
  return VK_FALSE;  // never abort the call that triggered the message
}

VkDebugUtilsMessengerCreateInfoEXT messenger_info(Context* ctx) {
  VkDebugUtilsMessengerCreateInfoEXT info{};
  info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  info.pfnUserCallback = on_debug_message;
  info.pUserData = ctx;
  return info;
}

bool has_layer(const char* name) {
  std::uint32_t count = 0;
  check(vkEnumerateInstanceLayerProperties(&count, nullptr), "vkEnumerateInstanceLayerProperties");
  std::vector<VkLayerProperties> layers(count);
  check(vkEnumerateInstanceLayerProperties(&count, layers.data()), "vkEnumerateInstanceLayerProperties");
  return std::any_of(layers.begin(), layers.begin() + count,
                     [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

std::vector<VkExtensionProperties> device_extensions(VkPhysicalDevice physical) {
  std::uint32_t count = 0;
  check(vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr), "vkEnumerateDeviceExtensionProperties");
  std::vector<VkExtensionProperties> extensions(count);
  check(vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data()),
        "vkEnumerateDeviceExtensionProperties");
  extensions.resize(count);
  return extensions;
}

bool has_extension(const std::vector<VkExtensionProperties>& extensions, const char* name) {
  return std::any_of(extensions.begin(), extensions.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

/// A queue family that draws and (windowed) presents to the surface, if the device has one.
std::optional<std::uint32_t> graphics_family(VkPhysicalDevice physical, VkSurfaceKHR surface) {
  std::uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  for (std::uint32_t i = 0; i < count; ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) continue;
    if (surface != VK_NULL_HANDLE) {
      VkBool32 supported = VK_FALSE;
      check(vkGetPhysicalDeviceSurfaceSupportKHR(physical, i, surface, &supported),
            "vkGetPhysicalDeviceSurfaceSupportKHR");
      if (!supported) continue;
    }
    return i;
  }
  return std::nullopt;
}

int type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
  }
}

const char* type_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
  }
}

}  // namespace

Context::~Context() {
  if (device) vkDestroyDevice(device, nullptr);
  if (surface) vkDestroySurfaceKHR(instance, surface, nullptr);
  if (messenger) vkDestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
  if (instance) vkDestroyInstance(instance, nullptr);
}

void Context::init(const ContextOptions& options) {
  check(volkInitialize(), "volkInitialize (loading the Vulkan loader libvulkan.so.1)");
  if (volkGetInstanceVersion() < VK_API_VERSION_1_1)
    throw Error{"the Vulkan loader is older than 1.1", VK_ERROR_INCOMPATIBLE_DRIVER};

  // Instance: the window system's surface extensions, plus debug utils for validation.
  std::vector<const char*> extensions;
  if (options.window) {
    std::uint32_t count = 0;
    const char** glfw_extensions = glfwGetRequiredInstanceExtensions(&count);
    if (!glfw_extensions)
      throw Error{"glfwGetRequiredInstanceExtensions failed: GLFW found no Vulkan surface support",
                  VK_ERROR_EXTENSION_NOT_PRESENT};
    extensions.assign(glfw_extensions, glfw_extensions + count);
  }
  std::vector<const char*> layers;
  if (options.validation) {
    if (!has_layer(validation_layer))
      throw Error{std::string{"validation requested but "} + validation_layer + " is not installed",
                  VK_ERROR_LAYER_NOT_PRESENT};
    layers.push_back(validation_layer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }

  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "framepacer";
  app.pEngineName = "framepacer";
  app.apiVersion = VK_API_VERSION_1_1;

  // Chained into the instance create info too, so that messages from vkCreateInstance and
  // vkDestroyInstance are logged and counted as well.
  const VkDebugUtilsMessengerCreateInfoEXT debug_info = messenger_info(this);
  VkInstanceCreateInfo instance_info{};
  instance_info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  instance_info.pNext = options.validation ? &debug_info : nullptr;
  instance_info.pApplicationInfo = &app;
  instance_info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
  instance_info.ppEnabledLayerNames = layers.data();
  instance_info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  instance_info.ppEnabledExtensionNames = extensions.data();
  check(vkCreateInstance(&instance_info, nullptr, &instance), "vkCreateInstance");
  volkLoadInstance(instance);

  if (options.validation)
    check(vkCreateDebugUtilsMessengerEXT(instance, &debug_info, nullptr, &messenger), "vkCreateDebugUtilsMessengerEXT");

  if (options.window)
    check(glfwCreateWindowSurface(instance, options.window, nullptr, &surface), "glfwCreateWindowSurface");

  // Physical device: the one asked for, else the best-ranked one that can draw (and present).
  std::uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  check(vkEnumeratePhysicalDevices(instance, &count, devices.data()), "vkEnumeratePhysicalDevices");
  devices.resize(count);
  if (devices.empty()) throw Error{"no Vulkan device found", VK_ERROR_INITIALIZATION_FAILED};

  const auto suitable = [&](VkPhysicalDevice candidate) -> std::optional<std::uint32_t> {
    VkPhysicalDeviceProperties props{};
    vkGetPhysicalDeviceProperties(candidate, &props);
    if (props.apiVersion < VK_API_VERSION_1_1) return std::nullopt;
    if (surface && !has_extension(device_extensions(candidate), VK_KHR_SWAPCHAIN_EXTENSION_NAME)) return std::nullopt;
    return graphics_family(candidate, surface);
  };
  if (options.gpu_index >= 0) {
    const auto index = static_cast<std::size_t>(options.gpu_index);
    if (index >= devices.size())
      throw Error{"gpu index " + std::to_string(options.gpu_index) + " out of range (" + std::to_string(devices.size()) +
                      " devices)",
                  VK_ERROR_INITIALIZATION_FAILED};
    const auto family = suitable(devices[index]);
    if (!family)
      throw Error{"gpu " + std::to_string(options.gpu_index) + " cannot draw" + (surface ? " and present" : ""),
                  VK_ERROR_FEATURE_NOT_PRESENT};
    physical = devices[index];
    queue_family = *family;
  } else {
    int best = -1;
    for (VkPhysicalDevice candidate : devices) {
      const auto family = suitable(candidate);
      if (!family) continue;
      VkPhysicalDeviceProperties props{};
      vkGetPhysicalDeviceProperties(candidate, &props);
      if (type_rank(props.deviceType) > best) {
        best = type_rank(props.deviceType);
        physical = candidate;
        queue_family = *family;
      }
    }
    if (!physical)
      throw Error{surface ? "no Vulkan device can draw and present to this window" : "no Vulkan device can draw",
                  VK_ERROR_FEATURE_NOT_PRESENT};
  }
  vkGetPhysicalDeviceProperties(physical, &properties);
  vkGetPhysicalDeviceMemoryProperties(physical, &memory);

  // Device: swapchain, and present id + present wait when both extensions and features exist.
  std::vector<const char*> device_exts;
  VkPhysicalDevicePresentIdFeaturesKHR present_id_features{};
  present_id_features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_FEATURES_KHR;
  VkPhysicalDevicePresentWaitFeaturesKHR present_wait_features{};
  present_wait_features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_FEATURES_KHR;
  if (surface) {
    device_exts.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
    const auto available = device_extensions(physical);
    if (has_extension(available, VK_KHR_PRESENT_ID_EXTENSION_NAME) &&
        has_extension(available, VK_KHR_PRESENT_WAIT_EXTENSION_NAME)) {
      present_id_features.pNext = &present_wait_features;
      VkPhysicalDeviceFeatures2 features{};
      features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
      features.pNext = &present_id_features;
      vkGetPhysicalDeviceFeatures2(physical, &features);
      present_wait = present_id_features.presentId && present_wait_features.presentWait;
    }
    if (present_wait) {
      device_exts.push_back(VK_KHR_PRESENT_ID_EXTENSION_NAME);
      device_exts.push_back(VK_KHR_PRESENT_WAIT_EXTENSION_NAME);
      present_id_features.presentId = VK_TRUE;
      present_wait_features.presentWait = VK_TRUE;
    }
  }

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = queue_family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{};
  device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  device_info.pNext = present_wait ? &present_id_features : nullptr;  // -> present_wait_features
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.enabledExtensionCount = static_cast<std::uint32_t>(device_exts.size());
  device_info.ppEnabledExtensionNames = device_exts.data();
  check(vkCreateDevice(physical, &device_info, nullptr, &device), "vkCreateDevice");
  volkLoadDevice(device);
  vkGetDeviceQueue(device, queue_family, 0, &queue);

  logger()->info("renderer: device '{}' ({}, Vulkan {}.{}.{}), queue family {}, present wait {}",
               properties.deviceName, type_name(properties.deviceType), VK_API_VERSION_MAJOR(properties.apiVersion),
               VK_API_VERSION_MINOR(properties.apiVersion), VK_API_VERSION_PATCH(properties.apiVersion), queue_family,
               surface ? (present_wait ? "yes" : "no") : "n/a (headless)");
}

std::uint32_t Context::memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags wanted) const {
  for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i)
    if ((type_bits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
  throw Error{"no suitable Vulkan memory type", VK_ERROR_OUT_OF_DEVICE_MEMORY};
}

Buffer create_host_buffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage) {
  Buffer b;
  b.size = size;
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(ctx.device, &info, nullptr, &b.buffer), "vkCreateBuffer");
  try {
    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(ctx.device, b.buffer, &req);
    VkMemoryAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex =
        ctx.memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    check(vkAllocateMemory(ctx.device, &alloc, nullptr, &b.memory), "vkAllocateMemory (buffer)");
    check(vkBindBufferMemory(ctx.device, b.buffer, b.memory, 0), "vkBindBufferMemory");
    check(vkMapMemory(ctx.device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
  } catch (...) {
    destroy(ctx.device, b);
    throw;
  }
  return b;
}

void destroy(VkDevice device, Buffer& buffer) {
  if (buffer.buffer) vkDestroyBuffer(device, buffer.buffer, nullptr);
  if (buffer.memory) vkFreeMemory(device, buffer.memory, nullptr);  // unmaps implicitly
  buffer = {};
}

VkImageView create_color_view(VkDevice device, VkImage image, VkFormat format) {
  VkImageViewCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
  info.image = image;
  info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  info.format = format;
  info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  check(vkCreateImageView(device, &info, nullptr, &view), "vkCreateImageView");
  return view;
}

Image create_color_image(const Context& ctx, VkFormat format, VkExtent2D extent, VkImageUsageFlags usage) {
  Image img;
  img.extent = extent;
  VkImageCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {extent.width, extent.height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  check(vkCreateImage(ctx.device, &info, nullptr, &img.image), "vkCreateImage");
  try {
    VkMemoryRequirements req{};
    vkGetImageMemoryRequirements(ctx.device, img.image, &req);
    VkMemoryAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = ctx.memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    check(vkAllocateMemory(ctx.device, &alloc, nullptr, &img.memory), "vkAllocateMemory (image)");
    check(vkBindImageMemory(ctx.device, img.image, img.memory, 0), "vkBindImageMemory");
    img.view = create_color_view(ctx.device, img.image, format);
  } catch (...) {
    destroy(ctx.device, img);
    throw;
  }
  return img;
}

void destroy(VkDevice device, Image& image) {
  if (image.view) vkDestroyImageView(device, image.view, nullptr);
  if (image.image) vkDestroyImage(device, image.image, nullptr);
  if (image.memory) vkFreeMemory(device, image.memory, nullptr);
  image = {};
}

}  // namespace renderer::detail
