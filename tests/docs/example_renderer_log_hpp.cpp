// header: renderer/include/renderer/log.hpp
// links: framepacer::renderer spdlog::spdlog
// run: yes
// The usage example of renderer/log.hpp, word for word between the two marks: the renderer
// logs through the game's "my_game" logger once given it, and through spdlog's default
// logger again after nullptr (no "framepacer" logger is registered in this program); with
// spdlog shut down then, through a logger with no sinks, never null.
#include <spdlog/spdlog.h>

#include <cstdio>
#include <memory>

#include "renderer/log.hpp"

int main() {
  spdlog::register_logger(std::make_shared<spdlog::logger>("my_game"));  // the game's (no sinks here)
// [example]
// with spdlog/spdlog.h: this header only declares spdlog::logger
renderer::set_logger(spdlog::get("my_game"));          // the renderer logs through the game's logger
renderer::logger()->info("swapchain {}x{}", 1280, 720);
renderer::set_logger(nullptr);                           // "framepacer" again, else spdlog's default
// [example]
  if (spdlog::get("framepacer") || renderer::logger() != spdlog::default_logger()) return 1;
  renderer::set_logger(spdlog::get("my_game"));
  if (renderer::logger() != spdlog::get("my_game")) return 1;
  // spdlog shut down before a late message, with no "framepacer" logger ever found: one with
  // no sinks, never null.
  renderer::set_logger(nullptr);
  spdlog::drop_all();
  if (renderer::logger() == nullptr || !renderer::logger()->sinks().empty()) return 1;
  std::printf("the renderer logged through \"my_game\", then through spdlog's default logger, then "
              "(spdlog shut down) through one with no sinks\n");
  return 0;
}
