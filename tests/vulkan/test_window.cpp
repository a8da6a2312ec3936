// engine::Window and GLFW's one-per-process state (engine/window.hpp): a window's end leaves
// other windows alive, the module's and a host's own. Needs an X display (Xvfb).
#include <gtest/gtest.h>

#include <GLFW/glfw3.h>

#include <cstdlib>
#include <optional>

#include "engine/window.hpp"

namespace {

bool have_display() { return std::getenv("DISPLAY") != nullptr || std::getenv("WAYLAND_DISPLAY") != nullptr; }

}  // namespace

TEST(Window, OneWindowsEndLeavesTheOtherOpen) {
  if (!have_display()) GTEST_SKIP() << "no display";
  const GLFWerrorfun before = [](int, const char*) {};
  glfwSetErrorCallback(before);
  {
    engine::Window first{"first", 160, 120};
    {
      engine::Window second{"second", 200, 100};
      EXPECT_EQ(second.framebuffer_size(), std::make_pair(200u, 100u));
    }
    // Before: the second's end terminated GLFW, and the first read 0x0 (minimized for good).
    first.poll();
    EXPECT_EQ(first.framebuffer_size(), std::make_pair(160u, 120u));
    EXPECT_FALSE(first.minimized());
    EXPECT_FALSE(first.should_close());
    std::optional<engine::Window> again{std::in_place, "again", 64, 64};
    again.reset();
    EXPECT_EQ(first.framebuffer_size(), std::make_pair(160u, 120u));
  }
  // GLFW ended with the last window the module started it for, and the error callback set
  // before it is back.
  EXPECT_EQ(glfwSetErrorCallback(nullptr), before);
}

TEST(Window, AHostsOwnGlfwOutlivesTheModulesWindows) {
  if (!have_display()) GTEST_SKIP() << "no display";
  ASSERT_EQ(glfwInit(), GLFW_TRUE);
  const GLFWerrorfun host_callback = [](int, const char*) {};
  glfwSetErrorCallback(host_callback);
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  GLFWwindow* host = glfwCreateWindow(120, 90, "host", nullptr, nullptr);
  ASSERT_NE(host, nullptr);
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);  // a host's hint, left set as hosts do
  {
    engine::Window ours{"ours", 64, 64, /*resizable=*/false};
    EXPECT_EQ(glfwGetWindowAttrib(ours.handle(), GLFW_VISIBLE), GLFW_TRUE) << "the module's window is made from GLFW's defaults";
  }
  // The host's GLFW, window and error callback are as it left them.
  int w = 0, h = 0;
  glfwGetFramebufferSize(host, &w, &h);
  EXPECT_EQ(w, 120);
  EXPECT_EQ(h, 90);
  EXPECT_EQ(glfwSetErrorCallback(nullptr), host_callback);
  // The hints the module set are GLFW's defaults again: the host's next window is resizable
  // (it was not: the module's window hinted GLFW_RESIZABLE false and left it so).
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  GLFWwindow* next = glfwCreateWindow(100, 80, "host next", nullptr, nullptr);
  ASSERT_NE(next, nullptr);
  EXPECT_EQ(glfwGetWindowAttrib(next, GLFW_RESIZABLE), GLFW_TRUE);
  glfwDestroyWindow(next);
  glfwDestroyWindow(host);
  glfwTerminate();
  // With GLFW ended, the next engine::Window starts it again (and ends it).
  engine::Window after{"after", 64, 64};
  EXPECT_EQ(after.framebuffer_size(), std::make_pair(64u, 64u));
}

TEST(Window, AnErrorCallbackTheHostSetsMeanwhileIsKept) {
  if (!have_display()) GTEST_SKIP() << "no display";
  const GLFWerrorfun mine = [](int, const char*) {};
  glfwSetErrorCallback(nullptr);
  {
    engine::Window w{"w", 64, 64};
    glfwSetErrorCallback(mine);  // while the module's GLFW runs
  }
  EXPECT_EQ(glfwSetErrorCallback(nullptr), mine);
}
