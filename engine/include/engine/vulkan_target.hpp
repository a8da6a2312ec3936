// engine/vulkan_target.hpp - the loop's FrameTarget on the Vulkan renderer.
//
// Acquire, draw and present map onto renderer::Renderer; a minimized window (iconified,
// or 0x0) makes acquire() fail and wait_until_ready() sleep in glfwWaitEvents. Where the
// device has VK_KHR_present_wait a watcher thread learns when each frame became
// visible: each time the loop collects records it polls the outstanding present ids
// (vkWaitForPresentKHR with a zero timeout, in order) and stamps the ones that have
// been shown, so display_ms is an upper bound, late by at most the polling gap
// (timing_source present_wait). Polling on the loop's thread keeps the swapchain,
// which recreation replaces, out of reach of any other thread. Where the queue has
// timestamps, the GPU time of each frame is handed over the same way (ms_gpu), once the
// renderer has read it after the frame's fence signalled. With report_shown_when_presented
// and no present wait, an immediate present is shown when it is made (no vblank to wait
// for; the simulator's immediate display has it so): present() returns the time its call
// returned as the display time, so the pacer learns the display as in virtual time.
// Offscreen (no window) every present is reported with it on, at its issue time (the
// simulator's offscreen display).
//
//   engine::VulkanTarget target{renderer, window, clock};  // a renderer::Renderer (renderer/renderer.hpp), a GLFWwindow* or nullptr
//   engine::Loop loop{clock, waiter, target, scene};       // engine/loop.hpp
#pragma once

#include <deque>
#include <utility>
#include <vector>

#include "engine/clock.hpp"
#include "engine/frame_target.hpp"

struct GLFWwindow;
namespace renderer {
class Renderer;
struct Circle;
}  // namespace renderer

namespace engine {

class VulkanTarget final : public FrameTarget {
 public:
  /// window: nullptr when headless.
  VulkanTarget(renderer::Renderer& gpu, GLFWwindow* window, const Clock& clock);
  VulkanTarget(const VulkanTarget&) = delete;
  VulkanTarget& operator=(const VulkanTarget&) = delete;

  bool acquire() override;
  bool wait_until_ready() override;
  void draw(const DrawList& list) override;
  void wait_drawn() override;
  pacer::PresentResult present(std::int64_t frame) override;
  bool reports_display() const override { return watching_; }
  void drain_displayed(const std::function<void(std::int64_t, pacer::Nanos)>& sink) override;
  bool reports_gpu() const override;
  void drain_gpu(const std::function<void(std::int64_t, pacer::Nanos)>& sink) override;
  void notify_resized();
  /// Without present wait, report a frame as shown when presented: an immediate present when
  /// its call returned, offscreen every present at its issue time. The engine turns it on
  /// where no refresh rate is known: the pacer then leaves the seed's rules for its
  /// display-aware mode after the first frame, as pacer-sim --display immediate (offscreen)
  /// does (with a refresh rate it plans on that grid from the start).
  void report_shown_when_presented(bool on) { report_presented_ = on; }
  /// The name before 2026-11-27 (it covered offscreen presents too).
  [[deprecated("use report_shown_when_presented")]] void report_immediate_presents(bool on) {
    report_shown_when_presented(on);
  }

 private:
  renderer::Renderer& gpu_;
  GLFWwindow* window_;
  const Clock& clock_;
  std::vector<renderer::Circle> circles_;

  bool watching_ = false;
  bool report_presented_ = false;  ///< report_shown_when_presented
  std::deque<std::pair<std::int64_t, std::uint64_t>> to_watch_;  ///< (frame, present id), oldest first
  std::deque<std::pair<std::uint64_t, std::int64_t>> drawn_;     ///< (renderer draw serial, frame), oldest first
};

}  // namespace engine
