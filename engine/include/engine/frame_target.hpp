// engine/frame_target.hpp - where the loop's frames go: the Vulkan renderer, or
// nothing at all (loop tests, pure CPU benchmarks).
//
//   engine::NullTarget target;                   // accepts every frame, shows none
//   engine::Loop loop{clock, waiter, target, scene};  // engine/loop.hpp
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "engine/scene.hpp"
#include "pacer/frame_driver.hpp"

namespace engine {

class FrameTarget {
 public:
  virtual ~FrameTarget() = default;
  /// Get an image to draw into. false: nothing can be drawn now (a minimized window);
  /// the loop then calls wait_until_ready() and tries again.
  virtual bool acquire() = 0;
  /// Blocks until acquire() may succeed (window events); false: give up (window closed).
  virtual bool wait_until_ready() { return true; }
  /// Record and submit the draw list.
  virtual void draw(const DrawList& list) = 0;
  /// Block until the frame drawn is finished (GPU work done). The loop calls it before a
  /// present it holds to a planned time, and counts it as render work.
  virtual void wait_drawn() {}
  /// Queue the present of the image drawn; `frame` is the loop's frame index. A target
  /// that knows at once when the frame is shown (a virtual display) says so.
  virtual pacer::PresentResult present(std::int64_t frame) = 0;
  /// true when the target learns later when frames became visible (VK_KHR_present_wait).
  virtual bool reports_display() const { return false; }
  /// Where the records' presentation times come from.
  virtual pacer::TimingSource timing_source() const {
    return reports_display() ? pacer::TimingSource::present_wait : pacer::TimingSource::cpu;
  }
  /// Hands over (frame, display time) pairs learnt since the last call.
  virtual void drain_displayed(const std::function<void(std::int64_t, pacer::Nanos)>& /*sink*/) {}
  /// true when the target measures the GPU time of frames (timestamp queries).
  virtual bool reports_gpu() const { return false; }
  /// Hands over (frame, GPU time) pairs of frames the GPU finished since the last call.
  virtual void drain_gpu(const std::function<void(std::int64_t, pacer::Nanos)>& /*sink*/) {}
};

/// Draws nothing; optionally lets a test charge time for each draw.
class NullTarget final : public FrameTarget {
 public:
  std::function<void()> on_draw;  ///< e.g. advance a manual clock by the render cost
  bool acquire() override { return true; }
  void draw(const DrawList&) override {
    ++draws;
    if (on_draw) on_draw();
  }
  pacer::PresentResult present(std::int64_t) override {
    ++presents;
    return {};
  }
  std::int64_t draws = 0, presents = 0;
};

}  // namespace engine
