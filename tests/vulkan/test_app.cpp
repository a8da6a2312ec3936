// engine::run_app in a process: one call at a time. A second call while one runs (on
// another thread) is refused at once, touching neither the signal handlers nor any output,
// and the first runs on to its end. Headless on the real device (lavapipe in the tests).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>

#include <unistd.h>

#include "engine/app.hpp"
#include "files.hpp"

namespace {

/// A scene whose first render waits until the test lets it go: the run is then certainly in
/// progress while the test makes its second call.
struct HeldScene final : engine::Scene {
  std::atomic<bool> rendering{false};
  std::atomic<bool> release{false};
  std::atomic<int> renders{0};
  void fixed_update(pacer::Nanos) override {}
  void render(double, engine::DrawList& out) override {
    out.circles.push_back({32, 32, 8, 0xff8000ffu});
    if (renders.fetch_add(1) == 0) {
      rendering = true;
      // A bound on the wait, so a failure to release cannot hang the suite.
      for (int i = 0; i < 60000 && !release; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
};

struct CountingScene final : engine::Scene {
  int calls = 0;
  void fixed_update(pacer::Nanos) override { ++calls; }
  void render(double, engine::DrawList&) override { ++calls; }
};

engine::Options headless_run(const std::filesystem::path& log) {
  engine::Options o;
  o.headless = true;
  o.width = 64;
  o.height = 64;
  o.frames = 5;
  o.quiet = true;
  o.log_path = log.string();
  return o;
}

}  // namespace

TEST(RunApp, ASecondCallWhileOneRunsIsRefusedAndTheFirstRunsOn) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("fp_run_app_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto first_log = dir / "first.csv", second_log = dir / "second.csv", third_log = dir / "third.csv";

  HeldScene held;
  int first_code = -1;
  std::atomic<bool> first_done{false};
  std::jthread first{[&] {
    first_code = engine::run_app(headless_run(first_log), held, "first");
    first_done = true;
  }};
  for (int i = 0; i < 60000 && !held.rendering && !first_done; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (!held.rendering) {  // the thread must end before the test does, whatever failed
    held.release = true;
    first.join();
    std::filesystem::remove_all(dir);
    FAIL() << "the first run never rendered (exit " << first_code << ")";
  }

  // The first run's SIGINT handler is installed now; the refused call must leave it so.
  struct sigaction before {}, after {};
  sigaction(SIGINT, nullptr, &before);
  CountingScene untouched;
  testing::internal::CaptureStderr();
  const int second_code = engine::run_app(headless_run(second_log), untouched, "second");
  const std::string err = testing::internal::GetCapturedStderr();
  sigaction(SIGINT, nullptr, &after);
  held.release = true;
  first.join();

  EXPECT_EQ(second_code, 2);
  EXPECT_EQ(err, "second: engine::run_app is already running in this process (one at a time)\n");
  EXPECT_EQ(untouched.calls, 0);
  EXPECT_NE(before.sa_handler, SIG_DFL) << "the first run had no handler of its own";
  EXPECT_EQ(after.sa_handler, before.sa_handler) << "the refused call changed the SIGINT handler";
  for (const auto& entry : std::filesystem::directory_iterator{dir})  // no log, no sidecar
    EXPECT_EQ(entry.path().filename().string().rfind("second", 0), std::string::npos) << entry.path();
  EXPECT_EQ(first_code, 0);
  EXPECT_EQ(held.renders.load(), 5);
  EXPECT_GT(line_count(first_log.string()), 5u);  // a header and the five frames

  // Once the first has ended, the next call runs.
  CountingScene next;
  EXPECT_EQ(engine::run_app(headless_run(third_log), next, "third"), 0);
  EXPECT_GT(next.calls, 0);
  std::filesystem::remove_all(dir);
}
