// header: engine/include/engine/log.hpp
// links: framepacer::engine spdlog::spdlog
// run: yes
// The usage example of engine/log.hpp, word for word between the two marks, with the header it
// names: the first line logs through the engine's own "framepacer" logger (made on first use);
// after set_logger the engine logs through the game's "my_game" logger, and nullptr undoes it.
// spdlog through its CMake target, as a game links it (the compiled library: a header-only
// copy would keep a logger registry of its own, apart from the engine's).
#include <spdlog/spdlog.h>

#include <cstdio>
#include <memory>

#include "engine/log.hpp"

int main() {
  spdlog::register_logger(std::make_shared<spdlog::logger>("my_game"));  // the game's (no sinks here)
  const int n = 3;
// [example]
// with spdlog/spdlog.h: this header only declares spdlog::logger
engine::logger()->info("loaded {} levels", n);          // [12:00:01.123] [info] loaded 3 levels
engine::set_logger(spdlog::get("my_game"));             // the engine logs through the game's logger
// [example]
  const auto own = spdlog::get("framepacer");
  if (!own || engine::logger() != spdlog::get("my_game")) return 1;
  engine::set_logger(nullptr);
  if (engine::logger() != own) return 1;
  std::printf("the engine logged through \"framepacer\", then through \"my_game\"\n");
  return 0;
}
