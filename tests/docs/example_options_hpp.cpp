// header: engine/include/engine/options.hpp
// links: framepacer::engine_core
// run: yes
// The usage example of engine/options.hpp, word for word between the two marks, parsing two
// command lines: "--balls 42 --frames 10" sets the sample's flag and a shared one and goes on
// (-1); "--balls 0" is out of the flag's range: one line on stderr, exit code 2.
#include <cstdio>

#include "engine/options.hpp"

struct Parsed {
  int balls = 0;
  std::int64_t frames = 0;
};

static int run(int argc, char** argv, Parsed& parsed) {
// [example]
engine::Cli cli{"bouncing_balls", "Balls bouncing at a slow logic rate."};
int balls = 500;
cli.add_int("--balls", "N", "number of balls", balls, 1, 200'000);
engine::Options opt;
if (int code = cli.parse(argc, argv, opt); code >= 0) return code;  // --help, --version, usage error (2)
// [example]
  parsed = {balls, opt.frames};
  return -1;
}

int main() {
  char program[] = "bouncing_balls", balls_flag[] = "--balls", n42[] = "42", frames_flag[] = "--frames",
       n10[] = "10", n0[] = "0";
  char* good[] = {program, balls_flag, n42, frames_flag, n10};
  Parsed parsed;
  if (run(5, good, parsed) != -1 || parsed.balls != 42 || parsed.frames != 10) return 1;
  char* bad[] = {program, balls_flag, n0};
  if (run(3, bad, parsed) != 2) return 1;
  std::printf("--balls 42 --frames 10 parsed, --balls 0 refused with exit code 2\n");
  return 0;
}
