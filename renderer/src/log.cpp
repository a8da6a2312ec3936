#include "renderer/log.hpp"

#include <spdlog/spdlog.h>

#include <mutex>

namespace renderer {

namespace {
std::mutex g_mutex;
std::shared_ptr<spdlog::logger> g_logger;  // the host's, or null: look it up on each call
}  // namespace

std::shared_ptr<spdlog::logger> logger() {
  {
    const std::lock_guard lock{g_mutex};
    if (g_logger) return g_logger;
  }
  if (auto engine = spdlog::get("framepacer")) return engine;
  return spdlog::default_logger();
}

void set_logger(std::shared_ptr<spdlog::logger> host) {
  const std::lock_guard lock{g_mutex};
  g_logger = std::move(host);
}

}  // namespace renderer
