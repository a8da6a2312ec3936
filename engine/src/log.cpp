#include "engine/log.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <mutex>

#include "renderer/log.hpp"

namespace engine {

namespace {
std::mutex g_mutex;
std::shared_ptr<spdlog::logger> g_logger;
}  // namespace

std::shared_ptr<spdlog::logger> logger() {
  const std::lock_guard lock{g_mutex};
  if (!g_logger) {
    g_logger = spdlog::get("framepacer");
    if (!g_logger) {
      g_logger = spdlog::stdout_color_mt("framepacer");
      g_logger->set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");  // this logger's pattern, not the global one
    }
  }
  return g_logger;
}

void set_logger(std::shared_ptr<spdlog::logger> host) {
  const std::lock_guard lock{g_mutex};  // both set under it: two calls at once leave them alike
  renderer::set_logger(host);           // the renderer's messages go where the engine's go
  g_logger = std::move(host);
}

}  // namespace engine
