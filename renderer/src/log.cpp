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
  if (auto fallback = spdlog::default_logger()) return fallback;
  // spdlog shut down (spdlog::shutdown, drop_all) before the renderer ends: a logger with no
  // sinks, so a late message (a validation report at teardown) goes nowhere instead of crashing.
  static const auto silent = std::make_shared<spdlog::logger>("framepacer_renderer_silent");
  return silent;
}

void set_logger(std::shared_ptr<spdlog::logger> host) {
  const std::lock_guard lock{g_mutex};
  g_logger = std::move(host);
}

}  // namespace renderer
