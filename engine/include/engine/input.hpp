// engine/input.hpp - window input as the scene sees it: keys, mouse buttons, the cursor,
// scrolling, resizes and focus. engine::Window (engine/window.hpp) turns GLFW's callbacks
// into these; any host can make them itself (SDL, an editor, a browser) and hand them to
// engine::Loop::push_input. The loop hands them to Scene::on_input at the next frame,
// in order, before the frame's variable update.
//
//   // an engine::Scene (engine/scene.hpp) that keeps the engine::Loop* attached() gives it (engine/loop.hpp)
//   void on_input(const engine::InputEvent& e) override {
//     if (e.kind == engine::InputEvent::Kind::key && e.pressed() && e.key == engine::keys::space) loop_->pause();
//   }
#pragma once

#include <cstdint>

namespace engine {

struct InputEvent {
  enum class Kind { key, mouse_button, cursor, scroll, resize, focus };
  enum class Action { release, press, repeat };
  Kind kind = Kind::key;
  Action action = Action::press;  ///< key, mouse_button
  int key = 0;        ///< key: GLFW's key code (printable keys are their ASCII upper case: 'A', '1', ' ')
  int scancode = 0;   ///< key: the platform's scancode
  int button = 0;     ///< mouse_button: 0 left, 1 right, 2 middle, ...
  int mods = 0;       ///< key, mouse_button: modifier bits (mods::shift | mods::control | ...)
  double x = 0, y = 0;  ///< cursor: position in window coordinates (origin top-left); scroll: offsets
  std::uint32_t width = 0, height = 0;  ///< resize: the framebuffer size in pixels
  bool focused = false;                 ///< focus: gained (true) or lost

  /// A press or an auto-repeat of a key or button.
  bool pressed() const { return action == Action::press || action == Action::repeat; }
};

/// Key codes (GLFW's values) the engine and the samples name.
namespace keys {
inline constexpr int space = 32, minus = 45, equal = 61, left_bracket = 91, right_bracket = 93;
inline constexpr int escape = 256, enter = 257, tab = 258, backspace = 259;
inline constexpr int right = 262, left = 263, down = 264, up = 265;
inline constexpr int kp_subtract = 333, kp_add = 334;
}  // namespace keys

/// Modifier bits (GLFW's values).
namespace mods {
inline constexpr int shift = 0x1, control = 0x2, alt = 0x4, super = 0x8;
}  // namespace mods

}  // namespace engine
