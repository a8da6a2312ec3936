#include "gpu.hpp"

#include <volk.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "engine/log.hpp"
#include "shape_frag.h"
#include "shape_vert.h"

namespace own {

namespace {

void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) throw std::runtime_error(std::string{what} + " failed: VkResult " + std::to_string(static_cast<int>(r)));
}

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

}  // namespace

VKAPI_ATTR VkBool32 VKAPI_CALL Gpu::on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                               VkDebugUtilsMessageTypeFlagsEXT /*types*/,
                                               const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* gpu = static_cast<Gpu*>(user);
  const char* text = data && data->pMessage ? data->pMessage : "(no message)";
  if (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)) {
    gpu->messages_.fetch_add(1);
    engine::logger()->error("vulkan: {}", text);
  }
  return VK_FALSE;
}

Gpu::Gpu(GLFWwindow* window, const GpuConfig& config) : window_{window}, config_{config} {
  try {
    create_device();
    create_pipeline();
    if (!create_swapchain()) throw std::runtime_error("the window has no size");
  } catch (...) {
    release();  // a constructor that throws gets no destructor call
    throw;
  }
}

void Gpu::create_device() {
  check(volkInitialize(), "volkInitialize (loading libvulkan.so.1)");
  std::uint32_t count = 0;
  const char** glfw_ext = glfwGetRequiredInstanceExtensions(&count);
  if (!glfw_ext) throw std::runtime_error("GLFW found no Vulkan surface support");
  std::vector<const char*> extensions(glfw_ext, glfw_ext + count);
  std::vector<const char*> layers;
  VkDebugUtilsMessengerCreateInfoEXT debug{};
  debug.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  debug.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  debug.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  debug.pfnUserCallback = on_message;
  debug.pUserData = this;
  if (config_.validation) {
    std::uint32_t n = 0;
    check(vkEnumerateInstanceLayerProperties(&n, nullptr), "vkEnumerateInstanceLayerProperties");
    std::vector<VkLayerProperties> available(n);
    check(vkEnumerateInstanceLayerProperties(&n, available.data()), "vkEnumerateInstanceLayerProperties");
    if (std::none_of(available.begin(), available.end(),
                     [](const VkLayerProperties& l) { return std::strcmp(l.layerName, kValidationLayer) == 0; }))
      throw std::runtime_error("validation requested but VK_LAYER_KHRONOS_validation is not installed");
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "own_renderer";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pNext = config_.validation ? &debug : nullptr;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  check(vkCreateInstance(&info, nullptr, &instance_), "vkCreateInstance");
  volkLoadInstance(instance_);
  if (config_.validation)
    check(vkCreateDebugUtilsMessengerEXT(instance_, &debug, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
  check(glfwCreateWindowSurface(instance_, window_, nullptr, &surface_), "glfwCreateWindowSurface");

  // The first device with a queue that draws and presents here, and the swapchain extension.
  check(vkEnumeratePhysicalDevices(instance_, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  check(vkEnumeratePhysicalDevices(instance_, &count, devices.data()), "vkEnumeratePhysicalDevices");
  for (VkPhysicalDevice d : devices) {
    std::uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(d, nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> exts(n);
    vkEnumerateDeviceExtensionProperties(d, nullptr, &n, exts.data());
    if (std::none_of(exts.begin(), exts.end(), [](const VkExtensionProperties& e) {
          return std::strcmp(e.extensionName, VK_KHR_SWAPCHAIN_EXTENSION_NAME) == 0;
        }))
      continue;
    vkGetPhysicalDeviceQueueFamilyProperties(d, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    vkGetPhysicalDeviceQueueFamilyProperties(d, &n, families.data());
    for (std::uint32_t i = 0; i < n && !physical_; ++i) {
      VkBool32 present = VK_FALSE;
      check(vkGetPhysicalDeviceSurfaceSupportKHR(d, i, surface_, &present), "vkGetPhysicalDeviceSurfaceSupportKHR");
      if ((families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) && present) {
        physical_ = d;
        family_ = i;
      }
    }
    if (physical_) break;
  }
  if (!physical_) throw std::runtime_error("no Vulkan device can draw and present to this window");
  vkGetPhysicalDeviceProperties(physical_, &properties_);
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{};
  queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue.queueFamilyIndex = family_;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  const char* device_ext = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
  VkDeviceCreateInfo dinfo{};
  dinfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  dinfo.queueCreateInfoCount = 1;
  dinfo.pQueueCreateInfos = &queue;
  dinfo.enabledExtensionCount = 1;
  dinfo.ppEnabledExtensionNames = &device_ext;
  check(vkCreateDevice(physical_, &dinfo, nullptr, &device_), "vkCreateDevice");
  volkLoadDevice(device_);
  vkGetDeviceQueue(device_, family_, 0, &queue_);

  VkCommandPoolCreateInfo pool{};
  pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = family_;
  check(vkCreateCommandPool(device_, &pool, nullptr, &pool_), "vkCreateCommandPool");
  for (Slot& s : slots_) {
    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.commandPool = pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(device_, &alloc, &s.commands), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fence{};
    fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    check(vkCreateFence(device_, &fence, nullptr, &s.done), "vkCreateFence");
    VkSemaphoreCreateInfo sem{};
    sem.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    check(vkCreateSemaphore(device_, &sem, nullptr, &s.acquired), "vkCreateSemaphore");
  }

  // Surface format and present mode.
  check(vkGetPhysicalDeviceSurfaceFormatsKHR(physical_, surface_, &count, nullptr), "vkGetPhysicalDeviceSurfaceFormatsKHR");
  std::vector<VkSurfaceFormatKHR> formats(count);
  check(vkGetPhysicalDeviceSurfaceFormatsKHR(physical_, surface_, &count, formats.data()),
        "vkGetPhysicalDeviceSurfaceFormatsKHR");
  if (formats.empty()) throw std::runtime_error("the surface offers no formats");
  format_ = formats.front();
  for (const VkSurfaceFormatKHR& f : formats)
    if ((f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM) &&
        f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) {
      format_ = f;
      break;
    }
  check(vkGetPhysicalDeviceSurfacePresentModesKHR(physical_, surface_, &count, nullptr),
        "vkGetPhysicalDeviceSurfacePresentModesKHR");
  std::vector<VkPresentModeKHR> modes(count);
  check(vkGetPhysicalDeviceSurfacePresentModesKHR(physical_, surface_, &count, modes.data()),
        "vkGetPhysicalDeviceSurfacePresentModesKHR");
  present_mode_ = std::find(modes.begin(), modes.end(), config_.present_mode) != modes.end() ? config_.present_mode
                                                                                              : VK_PRESENT_MODE_FIFO_KHR;
}

void Gpu::create_pipeline() {
  VkAttachmentDescription color{};
  color.format = format_.format;
  color.samples = VK_SAMPLE_COUNT_1_BIT;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  color.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  color.finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
  VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &ref;
  // The layout transition waits for the acquire semaphore (signalled at colour output).
  VkSubpassDependency dep{};
  dep.srcSubpass = VK_SUBPASS_EXTERNAL;
  dep.dstSubpass = 0;
  dep.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dep.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dep.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  VkRenderPassCreateInfo rp{};
  rp.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  rp.attachmentCount = 1;
  rp.pAttachments = &color;
  rp.subpassCount = 1;
  rp.pSubpasses = &subpass;
  rp.dependencyCount = 1;
  rp.pDependencies = &dep;
  check(vkCreateRenderPass(device_, &rp, nullptr, &render_pass_), "vkCreateRenderPass");

  auto module = [this](const std::uint32_t* code, std::size_t bytes) {
    VkShaderModuleCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    info.codeSize = bytes;
    info.pCode = code;
    VkShaderModule m = VK_NULL_HANDLE;
    check(vkCreateShaderModule(device_, &info, nullptr, &m), "vkCreateShaderModule");
    return m;
  };
  VkShaderModule vert = module(own_shape_vert, sizeof own_shape_vert);
  VkShaderModule frag = module(own_shape_frag, sizeof own_shape_frag);
  VkPipelineShaderStageCreateInfo stages[2]{};
  stages[0].sType = stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vert;
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = frag;
  stages[1].pName = "main";

  VkVertexInputBindingDescription binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
  VkVertexInputAttributeDescription attributes[2] = {
      {0, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(Vertex, x)},
      {1, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(Vertex, rgba)},
  };
  VkPipelineVertexInputStateCreateInfo input{};
  input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  input.vertexBindingDescriptionCount = 1;
  input.pVertexBindingDescriptions = &binding;
  input.vertexAttributeDescriptionCount = 2;
  input.pVertexAttributeDescriptions = attributes;
  VkPipelineInputAssemblyStateCreateInfo assembly{};
  assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo viewport{};
  viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{};
  raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{};
  multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend_attachment{};
  blend_attachment.blendEnable = VK_TRUE;
  blend_attachment.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
  blend_attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  blend_attachment.colorBlendOp = VK_BLEND_OP_ADD;
  blend_attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
  blend_attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
  blend_attachment.alphaBlendOp = VK_BLEND_OP_ADD;
  blend_attachment.colorWriteMask =
      VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blend{};
  blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  blend.attachmentCount = 1;
  blend.pAttachments = &blend_attachment;
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{};
  dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamic_states;

  VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT, 0, 2 * sizeof(float)};
  VkPipelineLayoutCreateInfo layout{};
  layout.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout.pushConstantRangeCount = 1;
  layout.pPushConstantRanges = &push;
  check(vkCreatePipelineLayout(device_, &layout, nullptr, &layout_), "vkCreatePipelineLayout");

  VkGraphicsPipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic;
  info.layout = layout_;
  info.renderPass = render_pass_;
  const VkResult r = vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline_);
  vkDestroyShaderModule(device_, vert, nullptr);
  vkDestroyShaderModule(device_, frag, nullptr);
  check(r, "vkCreateGraphicsPipelines");
}

bool Gpu::create_swapchain() {
  VkSurfaceCapabilitiesKHR caps{};
  check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical_, surface_, &caps), "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
  VkExtent2D extent = caps.currentExtent;
  if (extent.width == 0xFFFFFFFFu) {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    extent.width = std::clamp(static_cast<std::uint32_t>(w), caps.minImageExtent.width, caps.maxImageExtent.width);
    extent.height = std::clamp(static_cast<std::uint32_t>(h), caps.minImageExtent.height, caps.maxImageExtent.height);
  }
  if (extent.width == 0 || extent.height == 0) return false;
  std::uint32_t images = caps.minImageCount + 1;
  if (caps.maxImageCount != 0) images = std::min(images, caps.maxImageCount);
  VkSwapchainCreateInfoKHR info{};
  info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR;
  info.surface = surface_;
  info.minImageCount = images;
  info.imageFormat = format_.format;
  info.imageColorSpace = format_.colorSpace;
  info.imageExtent = extent;
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = caps.currentTransform;
  info.compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
                            ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                            : VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
  info.presentMode = present_mode_;
  info.clipped = VK_TRUE;
  info.oldSwapchain = swapchain_;
  VkSwapchainKHR created = VK_NULL_HANDLE;
  check(vkCreateSwapchainKHR(device_, &info, nullptr, &created), "vkCreateSwapchainKHR");
  if (swapchain_) vkDestroySwapchainKHR(device_, swapchain_, nullptr);
  swapchain_ = created;
  extent_ = extent;
  std::uint32_t count = 0;
  check(vkGetSwapchainImagesKHR(device_, swapchain_, &count, nullptr), "vkGetSwapchainImagesKHR");
  images_.resize(count);
  check(vkGetSwapchainImagesKHR(device_, swapchain_, &count, images_.data()), "vkGetSwapchainImagesKHR");
  for (VkImage image : images_) {
    VkImageViewCreateInfo view{};
    view.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    view.image = image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = format_.format;
    view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView v = VK_NULL_HANDLE;
    check(vkCreateImageView(device_, &view, nullptr, &v), "vkCreateImageView");
    views_.push_back(v);
    VkFramebufferCreateInfo fb{};
    fb.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
    fb.renderPass = render_pass_;
    fb.attachmentCount = 1;
    fb.pAttachments = &v;
    fb.width = extent.width;
    fb.height = extent.height;
    fb.layers = 1;
    VkFramebuffer f = VK_NULL_HANDLE;
    check(vkCreateFramebuffer(device_, &fb, nullptr, &f), "vkCreateFramebuffer");
    framebuffers_.push_back(f);
  }
  // Render-finished semaphores per image, kept across recreations (nothing says when the
  // presentation engine is done with one, but re-acquiring its image implies it).
  while (rendered_.size() < images_.size()) {
    VkSemaphoreCreateInfo sem{};
    sem.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    VkSemaphore s = VK_NULL_HANDLE;
    check(vkCreateSemaphore(device_, &sem, nullptr, &s), "vkCreateSemaphore");
    rendered_.push_back(s);
  }
  return true;
}

void Gpu::destroy_swapchain(bool keep_handle) {
  for (VkFramebuffer f : framebuffers_) vkDestroyFramebuffer(device_, f, nullptr);
  for (VkImageView v : views_) vkDestroyImageView(device_, v, nullptr);
  framebuffers_.clear();
  views_.clear();
  images_.clear();
  if (!keep_handle && swapchain_) {
    vkDestroySwapchainKHR(device_, swapchain_, nullptr);
    swapchain_ = VK_NULL_HANDLE;
  }
}

void Gpu::recreate_swapchain() {
  check(vkDeviceWaitIdle(device_), "vkDeviceWaitIdle");
  destroy_swapchain(true);  // the old handle is passed as oldSwapchain, then destroyed
  stale_ = !create_swapchain();
}

Gpu::~Gpu() { release(); }

void Gpu::release() {
  if (device_) {
    vkDeviceWaitIdle(device_);
    destroy_swapchain(false);
    for (VkSemaphore s : rendered_) vkDestroySemaphore(device_, s, nullptr);
    for (Slot& s : slots_) {
      if (s.vertices) vkDestroyBuffer(device_, s.vertices, nullptr);
      if (s.memory) vkFreeMemory(device_, s.memory, nullptr);
      if (s.done) vkDestroyFence(device_, s.done, nullptr);
      if (s.acquired) vkDestroySemaphore(device_, s.acquired, nullptr);
      s = {};
    }
    if (pipeline_) vkDestroyPipeline(device_, pipeline_, nullptr);
    if (layout_) vkDestroyPipelineLayout(device_, layout_, nullptr);
    if (render_pass_) vkDestroyRenderPass(device_, render_pass_, nullptr);
    if (pool_) vkDestroyCommandPool(device_, pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }
  if (instance_) {
    if (surface_) vkDestroySurfaceKHR(instance_, surface_, nullptr);
    if (messenger_) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
  }
}

void Gpu::reserve(Slot& slot, std::size_t vertices) {
  if (vertices <= slot.capacity) return;
  if (slot.vertices) vkDestroyBuffer(device_, slot.vertices, nullptr);
  if (slot.memory) vkFreeMemory(device_, slot.memory, nullptr);
  slot.capacity = std::max<VkDeviceSize>(vertices, 2 * slot.capacity);
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = slot.capacity * sizeof(Vertex);
  info.usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(device_, &info, nullptr, &slot.vertices), "vkCreateBuffer");
  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(device_, slot.vertices, &req);
  const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  std::uint32_t type = memory_.memoryTypeCount;
  for (std::uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
    if ((req.memoryTypeBits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & wanted) == wanted) {
      type = i;
      break;
    }
  if (type == memory_.memoryTypeCount) throw std::runtime_error("no host-visible memory for the vertex buffer");
  VkMemoryAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = type;
  check(vkAllocateMemory(device_, &alloc, nullptr, &slot.memory), "vkAllocateMemory");
  check(vkBindBufferMemory(device_, slot.vertices, slot.memory, 0), "vkBindBufferMemory");
  check(vkMapMemory(device_, slot.memory, 0, VK_WHOLE_SIZE, 0, &slot.mapped), "vkMapMemory");
}

bool Gpu::begin() {
  Slot& s = slots_[slot_];
  check(vkWaitForFences(device_, 1, &s.done, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  if (resized_ || stale_) {
    resized_ = false;
    recreate_swapchain();
    if (stale_) return false;  // minimized
  }
  const VkResult r = vkAcquireNextImageKHR(device_, swapchain_, UINT64_MAX, s.acquired, VK_NULL_HANDLE, &image_);
  if (r == VK_ERROR_OUT_OF_DATE_KHR) {  // nothing acquired, the semaphore untouched
    stale_ = true;
    return false;
  }
  if (r == VK_SUBOPTIMAL_KHR) stale_ = true;  // acquired: draw and present it, then recreate
  else check(r, "vkAcquireNextImageKHR");
  return true;
}

void Gpu::draw(std::span<const Vertex> vertices, const float clear[4]) {
  Slot& s = slots_[slot_];
  reserve(s, std::max<std::size_t>(vertices.size(), 64));
  if (!vertices.empty()) std::memcpy(s.mapped, vertices.data(), vertices.size_bytes());
  check(vkResetCommandBuffer(s.commands, 0), "vkResetCommandBuffer");
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(s.commands, &begin), "vkBeginCommandBuffer");
  VkClearValue value{};
  std::memcpy(value.color.float32, clear, 4 * sizeof(float));
  VkRenderPassBeginInfo pass{};
  pass.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
  pass.renderPass = render_pass_;
  pass.framebuffer = framebuffers_[image_];
  pass.renderArea = {{0, 0}, extent_};
  pass.clearValueCount = 1;
  pass.pClearValues = &value;
  vkCmdBeginRenderPass(s.commands, &pass, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdBindPipeline(s.commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
  const VkViewport viewport{0, 0, static_cast<float>(extent_.width), static_cast<float>(extent_.height), 0, 1};
  const VkRect2D scissor{{0, 0}, extent_};
  vkCmdSetViewport(s.commands, 0, 1, &viewport);
  vkCmdSetScissor(s.commands, 0, 1, &scissor);
  const float size[2] = {static_cast<float>(extent_.width), static_cast<float>(extent_.height)};
  vkCmdPushConstants(s.commands, layout_, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof size, size);
  const VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(s.commands, 0, 1, &s.vertices, &offset);
  vkCmdDraw(s.commands, static_cast<std::uint32_t>(vertices.size()), 1, 0, 0);
  vkCmdEndRenderPass(s.commands);
  check(vkEndCommandBuffer(s.commands), "vkEndCommandBuffer");

  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &s.acquired;
  submit.pWaitDstStageMask = &wait_stage;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &s.commands;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &rendered_[image_];
  check(vkResetFences(device_, 1, &s.done), "vkResetFences");  // only now: an early return never leaves it unsignalled
  check(vkQueueSubmit(queue_, 1, &submit, s.done), "vkQueueSubmit");
}

void Gpu::wait_drawn() {
  check(vkWaitForFences(device_, 1, &slots_[slot_].done, VK_TRUE, UINT64_MAX), "vkWaitForFences");
}

void Gpu::present() {
  VkPresentInfoKHR info{};
  info.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
  info.waitSemaphoreCount = 1;
  info.pWaitSemaphores = &rendered_[image_];
  info.swapchainCount = 1;
  info.pSwapchains = &swapchain_;
  info.pImageIndices = &image_;
  const VkResult r = vkQueuePresentKHR(queue_, &info);
  if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) stale_ = true;
  else check(r, "vkQueuePresentKHR");
  slot_ = (slot_ + 1) % frames_in_flight;
}

}  // namespace own
