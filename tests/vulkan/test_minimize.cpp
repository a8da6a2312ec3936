// A minimized window draws nothing until it is restored (renderer/README.md): the sample's
// window is minimized and restored as a window manager does it (WM_STATE and the mapping,
// through Xlib: Xvfb has no window manager), then closed by its close box, with validation on.
// On X11 a minimized window keeps its size, and the sample went on drawing into it.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "../docs/x11_window.hpp"  // last: Xlib's macros (None, Status, ...)

TEST(VulkanSample, AMinimizedWindowDrawsNothingUntilRestored) {
  if (std::getenv("DISPLAY") == nullptr) GTEST_SKIP() << "no X display";
  Display* x = XOpenDisplay(nullptr);
  if (x == nullptr) GTEST_SKIP() << "cannot open the X display";
  // The user: find the window, minimize it for 1.5 s, restore it, close it a second later.
  std::atomic<int> step{0};  // 1 found, 2 minimized, 3 restored, 4 closed
  std::thread user{[&] {
    Window w = 0;
    for (int i = 0; i < 600 && w == 0; ++i) {
      w = x11_user::find_named(x, DefaultRootWindow(x), "bouncing_balls");
      if (w == 0) std::this_thread::sleep_for(std::chrono::milliseconds{100});
    }
    if (w == 0) return;
    step = 1;
    std::this_thread::sleep_for(std::chrono::seconds{1});
    x11_user::set_iconic(x, w, true);
    step = 2;
    std::this_thread::sleep_for(std::chrono::milliseconds{1500});
    x11_user::set_iconic(x, w, false);
    step = 3;
    std::this_thread::sleep_for(std::chrono::seconds{1});
    x11_user::close(x, w);
    step = 4;
  }};
  std::string output;
  const std::string cmd = std::string{FP_SAMPLE} + " --validation --quiet --duration 120 --log minimized.csv 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe)) output += buf;
  const int status = pclose(pipe);
  user.join();
  XCloseDisplay(x);
  EXPECT_EQ(step.load(), 4) << "the window was found, minimized, restored and closed\n" << output;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
  EXPECT_NE(output.find("renderer: window minimized: drawing nothing until it is restored"), std::string::npos) << output;
  EXPECT_NE(output.find("renderer: window restored"), std::string::npos) << output;
  EXPECT_NE(output.find("validation: 0 messages, 0 errors"), std::string::npos) << output;
}
