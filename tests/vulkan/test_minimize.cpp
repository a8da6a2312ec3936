// A minimized window draws nothing until it is restored (renderer/README.md): the sample's
// window is minimized and restored as a window manager does it (WM_STATE and the mapping,
// through Xlib: Xvfb has no window manager), then closed by its close box, with validation on.
// On X11 a minimized window keeps its size, and the sample went on drawing into it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "spawn.hpp"
#include "../docs/x11_window.hpp"  // last: Xlib's macros (None, Status, ...)

TEST(VulkanSample, AMinimizedWindowDrawsNothingUntilRestored) {
  if (std::getenv("DISPLAY") == nullptr) GTEST_SKIP() << "no X display";
  Display* x = XOpenDisplay(nullptr);
  if (x == nullptr) GTEST_SKIP() << "cannot open the X display";
  // The sample, its pid known (sh execs it): the window to find is the one it made, not the
  // window of the same title another test runs beside this one (ctest -j2, one X server).
  const std::string cmd = std::string{"exec "} + FP_SAMPLE + " --validation --quiet --duration 120 --log minimized.csv";
  int out[2];
  ASSERT_EQ(pipe2(out, O_CLOEXEC), 0);
  const pid_t pid = spawn_shell(cmd, out[1]);
  close(out[1]);
  if (pid < 0) close(out[0]);
  ASSERT_GE(pid, 0);
  // The user: find the window, minimize it for 1.5 s, restore it, close it a second later.
  std::atomic<int> step{0};  // 1 found, 2 minimized, 3 restored, 4 closed
  std::thread user{[&] {
    Window w = 0;
    for (int i = 0; i < 600 && w == 0; ++i) {
      w = x11_user::find_named(x, DefaultRootWindow(x), "bouncing_balls", static_cast<unsigned long>(pid));
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
  char buf[4096];
  for (ssize_t n; (n = read(out[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    output.append(buf, static_cast<std::size_t>(n));
  }
  close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  user.join();
  XCloseDisplay(x);
  EXPECT_EQ(step.load(), 4) << "the window was found, minimized, restored and closed\n" << output;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
  EXPECT_NE(output.find("renderer: window minimized: drawing nothing until it is restored"), std::string::npos) << output;
  EXPECT_NE(output.find("renderer: window restored"), std::string::npos) << output;
  EXPECT_NE(output.find("validation: 0 messages, 0 errors"), std::string::npos) << output;
}
