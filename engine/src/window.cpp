#include "engine/window.hpp"

#include <GLFW/glfw3.h>
#include <spdlog/spdlog.h>

#include <mutex>
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

// GLFW is one per process, and glfwInit is not counted: the first window of the module
// starts GLFW, the last one ends it, and only where the module started it. A host that
// initialised GLFW for its own windows keeps it (and its error callback) when ours close;
// before, each window's end terminated GLFW, destroying every other window with it (a second
// engine::Window then read 0x0 and waited as if minimized for good).
// GLFW's calls belong on the main thread; the mutex only keeps the count whole should a
// host break that rule.
std::mutex glfw_mutex;
int glfw_windows = 0;     ///< engine::Windows alive
bool glfw_ours = false;   ///< the first of them initialised GLFW
GLFWerrorfun glfw_callback_before = nullptr;  ///< the error callback set before ours, put back with glfwTerminate

void log_glfw_error(int code, const char* text) { logger()->debug("glfw error {}: {}", code, text); }

/// Ends the GLFW the module started, and puts back the error callback from before it (unless
/// the host set one of its own since).
void end_glfw() {
  glfwTerminate();
  if (const GLFWerrorfun now = glfwSetErrorCallback(glfw_callback_before); now != log_glfw_error) glfwSetErrorCallback(now);
}

/// Whether GLFW is initialised now: glfwGetTime sets GLFW_NOT_INITIALIZED when it is not
/// (no error callback sees the probe; an error the host had not read yet is read here).
bool glfw_initialised() {
  const GLFWerrorfun callback = glfwSetErrorCallback(nullptr);
  glfwGetError(nullptr);
  (void)glfwGetTime();
  const bool initialised = glfwGetError(nullptr) != GLFW_NOT_INITIALIZED;
  glfwSetErrorCallback(callback);
  return initialised;
}

}  // namespace

/// The GLFW callbacks append to the window's queue through this.
struct WindowEvents {
  static void push(GLFWwindow* w, const InputEvent& e) { self(w).events_.push_back(e); }
  static void set_iconified(GLFWwindow* w, bool iconified) { self(w).iconified_ = iconified; }
};

Window::Window(std::string_view title, std::uint32_t width, std::uint32_t height, bool resizable) {
  {
    const std::lock_guard lock{glfw_mutex};
    if (glfw_windows == 0) {
      glfw_ours = !glfw_initialised();
      if (glfw_ours) {
        glfw_callback_before = glfwSetErrorCallback(log_glfw_error);
        if (glfwInit() != GLFW_TRUE) {
          glfwSetErrorCallback(glfw_callback_before);
          throw std::runtime_error("no display: GLFW could not initialise (is DISPLAY set? try --headless)");
        }
      }
    }
    // Window hints are GLFW's global state and cannot be read back: the module's window is
    // made from GLFW's defaults (a host's hints, say GLFW_VISIBLE false, do not reach it), and
    // the hints are left at the defaults after it (GLFW_NO_API would take a host's next
    // window's OpenGL context): a host sets its hints before each window it makes.
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_RESIZABLE, resizable ? GLFW_TRUE : GLFW_FALSE);
    const std::string t{title};
    window_ = glfwCreateWindow(static_cast<int>(width), static_cast<int>(height), t.c_str(), nullptr, nullptr);
    glfwDefaultWindowHints();
    if (!window_) {
      if (glfw_windows == 0 && glfw_ours) end_glfw();
      throw std::runtime_error("no display: could not create a window");
    }
    ++glfw_windows;
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
  const std::lock_guard lock{glfw_mutex};
  if (--glfw_windows == 0 && glfw_ours) end_glfw();
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
