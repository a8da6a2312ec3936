// Stand-ins for the parts of a game that docs/integration.md's C++ snippets mention but do
// not show (its clock, swapchain, world, waiter, log, "running"), on a virtual clock: a
// render takes 3 ms, an update 1 ms, a wait jumps to its deadline. check_snippets.sh puts
// each snippet in a function of namespace game (or, when it defines main, compiles it as a
// whole file after this header), builds it against the core with the project's warnings as
// errors and runs it: `running` lets 5 frames through, and verdict() then insists that
// every frame drawn reached the log (a loop that forgets finish() loses its last row).
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>

#include "engine/app.hpp"
#include "engine/options.hpp"
#include "engine/scene.hpp"
#include "pacer/display_spec.hpp"
#include "pacer/frame_driver.hpp"
#include "pacer/interpolation.hpp"
#include "pacer/log_writer.hpp"
#include "pacer/policies.hpp"

namespace game {

inline pacer::Nanos clock_now{0};
inline int frames_drawn = 0;
inline bool bad_alpha = false;

/// The game's clock: nanoseconds since its run start.
inline pacer::Nanos my_clock_ns() { return clock_now; }
inline pacer::Nanos now() { return clock_now; }

/// Draws the world at alpha between its previous and current state.
inline void draw_world(double alpha) {
  if (!(alpha >= 0.0 && alpha <= 1.0)) bad_alpha = true;
  ++frames_drawn;
  clock_now += pacer::Nanos{3'000'000};
}
inline void present() {}

struct Swapchain {
  bool acquire() { return true; }
  void present() {}
};
inline Swapchain swapchain;
inline std::uint32_t swapchain_image_count = 3;

struct World {
  void step(pacer::Nanos) { clock_now += pacer::Nanos{1'000'000}; }
};
inline World world;

struct Waiter {
  void wait_until(pacer::Nanos deadline) {
    if (deadline > clock_now) clock_now = deadline;
  }
};
inline Waiter waiter;

/// true for the first 5 tests, then false: `while (running)` runs 5 frames.
struct Running {
  int left = 5;
  explicit operator bool() { return left-- > 0; }
};
inline Running running;

inline std::ostringstream log_text;
inline pacer::NativeLogWriter log{log_text};

/// A frame and the time it was shown, as a present-timing extension reports them.
inline std::int64_t f = 0;
inline pacer::Nanos shown_ns{0};

/// 0 when every frame drawn has its row in the log and every alpha was in [0, 1].
inline int verdict() {
  const std::string text = log_text.str();
  int lines = 0;
  for (char c : text) lines += c == '\n' ? 1 : 0;
  const int rows = lines > 0 ? lines - 1 : 0;
  std::printf("%d frames drawn, %d rows logged, virtual time %.3f ms\n", frames_drawn, rows, pacer::to_ms(clock_now));
  if (bad_alpha) {
    std::fprintf(stderr, "an alpha outside [0, 1] was drawn\n");
    return 1;
  }
  if (frames_drawn > 0 && rows != frames_drawn) {
    std::fprintf(stderr, "%d frames drawn but %d rows logged: a frame's record never reached the log\n",
                 frames_drawn, rows);
    return 1;
  }
  return 0;
}

}  // namespace game
