#include "renderer/log.hpp"

#include <spdlog/spdlog.h>

#include <mutex>

namespace renderer {

namespace {
std::mutex g_mutex;
std::shared_ptr<spdlog::logger> g_logger;  // the host's, or null: look it up on each call
std::shared_ptr<spdlog::logger> g_named;   // the "framepacer" logger last found in the registry
}  // namespace

std::shared_ptr<spdlog::logger> logger() {
  const std::lock_guard lock{g_mutex};
  if (g_logger) return g_logger;
  if (auto named = spdlog::get("framepacer")) {
    g_named = named;
    return named;
  }
  // Dropped from the registry since (a host's spdlog::drop, drop_all or shutdown): the one last
  // found, not spdlog's default. Where the engine runs it is the engine's, which the engine
  // registers again at its next message; a host's own stays in use (it keeps its sinks).
  if (g_named) return g_named;
  if (auto fallback = spdlog::default_logger()) return fallback;
  // spdlog shut down (spdlog::shutdown, drop_all) before the renderer ends, and no "framepacer"
  // logger found before: a logger with no sinks, so a late message (a validation report at
  // teardown) goes nowhere instead of crashing.
  static const auto silent = std::make_shared<spdlog::logger>("framepacer_renderer_silent");
  return silent;
}

void set_logger(std::shared_ptr<spdlog::logger> host) {
  const std::lock_guard lock{g_mutex};
  g_logger = std::move(host);
}

}  // namespace renderer
