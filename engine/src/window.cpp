#include "engine/window.hpp"

#include <GLFW/glfw3.h>
#include <spdlog/spdlog.h>

#include <stdexcept>
#include <string>

#include "engine/log.hpp"

namespace engine {

namespace {

Window& self(GLFWwindow* w) { return *static_cast<Window*>(glfwGetWindowUserPointer(w)); }

InputEvent::Action action_of(int action) {
  switch (action) {
    case GLFW_RELEASE: return InputEvent::Action::release;
    case GLFW_REPEAT: return InputEvent::Action::repeat;
    default: return InputEvent::Action::press;
  }
}

}  // namespace

/// The GLFW callbacks append to the window's queue through this.
struct WindowEvents {
  static void push(GLFWwindow* w, const InputEvent& e) { self(w).events_.push_back(e); }
  static void set_iconified(GLFWwindow* w, bool iconified) { self(w).iconified_ = iconified; }
};

Window::Window(std::string_view title, std::uint32_t width, std::uint32_t height, bool resizable) {
  glfwSetErrorCallback([](int code, const char* text) { logger()->debug("glfw error {}: {}", code, text); });
  if (glfwInit() != GLFW_TRUE) throw std::runtime_error("no display: GLFW could not initialise (is DISPLAY set? try --headless)");
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  glfwWindowHint(GLFW_RESIZABLE, resizable ? GLFW_TRUE : GLFW_FALSE);
  const std::string t{title};
  window_ = glfwCreateWindow(static_cast<int>(width), static_cast<int>(height), t.c_str(), nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw std::runtime_error("no display: could not create a window");
  }
  glfwSetWindowUserPointer(window_, this);
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int scancode, int action, int mods) {
    InputEvent e;
    e.kind = InputEvent::Kind::key;
    e.key = key;
    e.scancode = scancode;
    e.action = action_of(action);
    e.mods = mods;
    WindowEvents::push(w, e);
  });
  glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int button, int action, int mods) {
    InputEvent e;
    e.kind = InputEvent::Kind::mouse_button;
    e.button = button;
    e.action = action_of(action);
    e.mods = mods;
    WindowEvents::push(w, e);
  });
  glfwSetCursorPosCallback(window_, [](GLFWwindow* w, double x, double y) {
    InputEvent e;
    e.kind = InputEvent::Kind::cursor;
    e.x = x;
    e.y = y;
    WindowEvents::push(w, e);
  });
  glfwSetScrollCallback(window_, [](GLFWwindow* w, double x, double y) {
    InputEvent e;
    e.kind = InputEvent::Kind::scroll;
    e.x = x;
    e.y = y;
    WindowEvents::push(w, e);
  });
  glfwSetFramebufferSizeCallback(window_, [](GLFWwindow* w, int fb_width, int fb_height) {
    InputEvent e;
    e.kind = InputEvent::Kind::resize;
    e.width = static_cast<std::uint32_t>(fb_width < 0 ? 0 : fb_width);
    e.height = static_cast<std::uint32_t>(fb_height < 0 ? 0 : fb_height);
    WindowEvents::push(w, e);
  });
  // Minimized: kept from GLFW's iconify events (asking GLFW_ICONIFIED each frame is a
  // round trip to the X server).
  glfwSetWindowIconifyCallback(window_, [](GLFWwindow* w, int iconified) { WindowEvents::set_iconified(w, iconified == GLFW_TRUE); });
  glfwSetWindowFocusCallback(window_, [](GLFWwindow* w, int focused) {
    InputEvent e;
    e.kind = InputEvent::Kind::focus;
    e.focused = focused == GLFW_TRUE;
    WindowEvents::push(w, e);
  });
}

Window::~Window() {
  glfwDestroyWindow(window_);
  glfwTerminate();
}

bool Window::should_close() const { return glfwWindowShouldClose(window_) == GLFW_TRUE; }

std::vector<InputEvent> Window::poll() {
  glfwPollEvents();
  return std::exchange(events_, {});
}

std::pair<std::uint32_t, std::uint32_t> Window::framebuffer_size() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return {static_cast<std::uint32_t>(w < 0 ? 0 : w), static_cast<std::uint32_t>(h < 0 ? 0 : h)};
}

bool Window::minimized() const {
  if (iconified_) return true;
  const auto [w, h] = framebuffer_size();
  return w == 0 || h == 0;
}

void Window::set_size(std::uint32_t width, std::uint32_t height) {
  glfwSetWindowSize(window_, static_cast<int>(width), static_cast<int>(height));
}

}  // namespace engine
