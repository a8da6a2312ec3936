// header: engine/include/engine/cli.hpp
// links: framepacer::engine_core
// run: yes
// The usage example of engine/cli.hpp, word for word between the two marks, parsing two
// command lines: --render-ms 4.5 goes on (-1) with the value set; 1e9 is out of the flag's
// range: one line on stderr, exit code 2.
#include <cstdio>

#include "engine/cli.hpp"

#ifndef FP_VERSION
#define FP_VERSION "0.0.0"  // the project's programs get it from CMake: FP_VERSION="${PROJECT_VERSION}"
#endif

static int run(int argc, const char* const* argv, double& render_ms) {
// [example]
CLI::App app{"Runs a pacing policy in virtual time.", "pacer-sim"};
fpcli::setup(app, FP_VERSION);
app.add_option("--render-ms", render_ms, "CPU cost of a render")->transform(fpcli::real(0, 10'000));
if (const int code = fpcli::parse(app, argc, argv); code >= 0) return code;
// [example]
  return -1;
}

int main() {
  double render_ms = 2.0;
  const char* good[] = {"pacer-sim", "--render-ms", "4.5"};
  if (run(3, good, render_ms) != -1 || render_ms != 4.5) return 1;
  const char* bad[] = {"pacer-sim", "--render-ms", "1e9"};
  if (run(3, bad, render_ms) != 2) return 1;
  std::printf("--render-ms 4.5 parsed, 1e9 refused with exit code 2\n");
  return 0;
}
