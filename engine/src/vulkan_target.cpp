#include "engine/vulkan_target.hpp"

#include <GLFW/glfw3.h>

#include "renderer/renderer.hpp"

namespace engine {

VulkanTarget::VulkanTarget(renderer::Renderer& gpu, GLFWwindow* window, const Clock& clock)
    : gpu_{gpu}, window_{window}, clock_{clock}, watching_{window != nullptr && gpu.has_present_wait()} {}

bool VulkanTarget::acquire() { return gpu_.begin_frame(); }

bool VulkanTarget::wait_until_ready() {
  if (!window_) return true;
  // Minimized: nothing to draw until the window has a size again.
  glfwWaitEventsTimeout(0.1);
  return glfwWindowShouldClose(window_) != GLFW_TRUE;
}

void VulkanTarget::draw(const DrawList& list) {
  circles_.clear();
  circles_.reserve(list.circles.size());
  for (const Circle& c : list.circles) circles_.push_back({c.x, c.y, c.radius, c.rgba});
  if (list.gpu_load != gpu_.gpu_load()) gpu_.set_gpu_load(list.gpu_load);
  gpu_.draw(circles_, list.clear_rgba);
}

void VulkanTarget::wait_drawn() { gpu_.wait_drawn(); }

pacer::PresentResult VulkanTarget::present(std::int64_t frame) {
  // draw() came before: its serial is frames_drawn() - 1.
  if (gpu_.has_gpu_timing() && gpu_.frames_drawn() > 0) {
    drawn_.emplace_back(gpu_.frames_drawn() - 1, frame);
    while (drawn_.size() > 32) drawn_.pop_front();
  }
  const pacer::Nanos issued = clock_.now();
  const std::uint64_t id = gpu_.present();
  if (watching_ && id != 0) to_watch_.emplace_back(frame, id);
  // Immediate with no present wait (report_shown_when_presented): shown when presented, once
  // the call has queued it (its return); offscreen: done when issued. The simulator's model
  // of both (pacer/simulator.hpp: a present call's time comes before an immediate display).
  if (report_presented_ && !watching_) {
    if (!window_) return {issued, std::nullopt};
    if (gpu_.present_mode() == renderer::PresentMode::immediate) return {clock_.now(), std::nullopt};
  }
  return {};  // display times come later, through drain_displayed
}

bool VulkanTarget::reports_gpu() const { return gpu_.has_gpu_timing(); }

void VulkanTarget::drain_gpu(const std::function<void(std::int64_t, pacer::Nanos)>& sink) {
  for (const renderer::GpuTime& t : gpu_.take_gpu_times()) {
    // Serials come in order: drop the frames older than this one (never timed), use this one.
    while (!drawn_.empty() && drawn_.front().first < t.frame) drawn_.pop_front();
    if (drawn_.empty() || drawn_.front().first != t.frame) continue;
    sink(drawn_.front().second, pacer::Nanos{t.duration.count()});
    drawn_.pop_front();
  }
}

void VulkanTarget::notify_resized() { gpu_.notify_resized(); }

void VulkanTarget::drain_displayed(const std::function<void(std::int64_t, pacer::Nanos)>& sink) {
  // Presents complete in order: stop at the first one not yet shown.
  while (!to_watch_.empty() && gpu_.wait_for_present(to_watch_.front().second, pacer::Nanos::zero())) {
    sink(to_watch_.front().first, clock_.now());
    to_watch_.pop_front();
  }
  // A present that never shows (swapchain recreated under it) must not block the rest.
  while (to_watch_.size() > 16) to_watch_.pop_front();
}

}  // namespace engine
