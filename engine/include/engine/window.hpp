// engine/window.hpp - a GLFW window whose input becomes engine::InputEvent (keys, mouse
// buttons, cursor, scroll, resizes, focus). The first window starts GLFW and the last one
// ends it, unless GLFW was already initialised when the first was made: a game that uses
// GLFW itself (glfwInit before its first engine::Window) keeps it, its windows and its error
// callback. GLFW's window hints are left at their defaults after each window (set yours
// before each window you make). Windows are made and dropped on the main thread, as GLFW asks. A window has no
// client API (GLFW_NO_API), ready for a Vulkan surface - the engine's renderer's, or a
// game's own (glfwCreateWindowSurface(instance, window.handle(), ...)).
//
//   engine::Window window{"my game", 1280, 720};
//   loop.poll = [&] {                    // loop: an engine::Loop (engine/loop.hpp)
//     for (const engine::InputEvent& e : window.poll()) loop.push_input(e);
//     return !window.should_close();
//   };
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/input.hpp"

struct GLFWwindow;

namespace engine {

struct WindowEvents;

class Window {
 public:
  /// Throws std::runtime_error ("no display: ...") when GLFW cannot start or make the window.
  Window(std::string_view title, std::uint32_t width, std::uint32_t height, bool resizable = true);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  GLFWwindow* handle() const { return window_; }
  bool should_close() const;
  /// Processes pending window events (glfwPollEvents); returns the input since the last
  /// call, in order.
  std::vector<InputEvent> poll();
  /// The framebuffer size in pixels (0x0 while minimized on some systems; on X11 a minimized
  /// window keeps its size: ask minimized()).
  std::pair<std::uint32_t, std::uint32_t> framebuffer_size() const;
  /// Minimized: iconified, or a 0x0 framebuffer. Nothing drawn is seen.
  bool minimized() const;
  /// Asks the window system for a new size (screen coordinates).
  void set_size(std::uint32_t width, std::uint32_t height);

 private:
  friend struct WindowEvents;
  GLFWwindow* window_ = nullptr;
  std::vector<InputEvent> events_;
  bool iconified_ = false;  ///< from GLFW's iconify events
};

}  // namespace engine
