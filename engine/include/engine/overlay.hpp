// engine/overlay.hpp - the on-screen pacing overlay (docs/overlay.md): a panel in the top-left
// corner with a frame-time graph and the pacing numbers, drawn with the renderer's own
// sprites (squares: a negative radius) and a built-in 5x7 bitmap font. No Vulkan here: it
// only turns frame records into a list of shapes the target draws over the scene.
//
//   engine::Overlay overlay;
//   loop.on_record = [&](const pacer::FrameRecord& r) { overlay.add(r); };  // loop: engine/loop.hpp
//   loop.on_presented = [&](const pacer::FramePlan&) { overlay.build(loop.pacer()->interval()); };
//   loop.set_overlay(&overlay.shapes());  // nullptr hides it (F3 / O, --overlay)
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/scene.hpp"
#include "pacer/pacer.hpp"
#include "pacer/stats.hpp"

namespace engine {

class Overlay {
 public:
  /// Frames the graph and the numbers cover (the latest ones).
  static constexpr std::size_t history = 120;
  /// The panel: its top-left corner and size in pixels.
  static constexpr float left = 8, top = 8, width = 400, height = 176;

  /// A completed frame record, in order.
  void add(const pacer::FrameRecord& r);
  /// Rebuilds shapes() from the latest records; `interval` is the pacer's interval in force.
  void build(pacer::Nanos interval);
  /// What to draw on top of the scene (squares and text, in framebuffer pixels).
  const std::vector<Circle>& shapes() const { return shapes_; }

  /// The numbers shown (for tests): over the latest history() frames.
  const pacer::Summary& summary() const { return summary_; }
  /// The mean GPU time (ms) of the latest frames that have one; nullopt when none has.
  std::optional<double> gpu_ms() const { return gpu_ms_; }
  /// The text lines shown, top to bottom.
  const std::vector<std::string>& lines() const { return lines_; }

  /// Appends `text` in the 5x7 font at (x, y) (top-left), each font pixel a square of
  /// `scale` pixels; lower case is drawn as upper case, unknown characters as '?'.
  /// Returns the x after the last character.
  static float draw_text(std::vector<Circle>& out, float x, float y, std::string_view text, float scale,
                         std::uint32_t rgba);

 private:
  std::deque<pacer::FrameRecord> records_;
  std::vector<pacer::FrameRecord> window_;  ///< scratch: records_ as a span
  std::string policy_;
  pacer::Summary summary_{};
  std::optional<double> gpu_ms_;
  std::vector<std::string> lines_;
  std::vector<Circle> shapes_;
  std::int64_t since_stats_ = 0;  ///< records added since the numbers were computed
};

}  // namespace engine
