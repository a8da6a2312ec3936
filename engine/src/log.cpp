#include "engine/log.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <mutex>

#include "renderer/log.hpp"

namespace engine {

namespace {
std::mutex g_mutex;
std::shared_ptr<spdlog::logger> g_host;  // set_logger's, or null
std::shared_ptr<spdlog::logger> g_own;   // "framepacer": the last one found or made
}  // namespace

std::shared_ptr<spdlog::logger> logger() {
  const std::lock_guard lock{g_mutex};
  if (g_host) return g_host;
  // The engine's own is "framepacer" in spdlog's registry, where the renderer looks it up too,
  // so the registry is read on each call: a logger registered under that name is the one (a
  // host's replacement too), and when a host dropped it (spdlog::drop, drop_all) the one last
  // used is registered again, so the engine and the renderer go on writing to the same logger.
  if (auto named = spdlog::get("framepacer")) {
    g_own = std::move(named);
    return g_own;
  }
  if (!g_own) {
    g_own = spdlog::stdout_color_mt("framepacer");
    g_own->set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");  // this logger's pattern, not the global one
    return g_own;
  }
  try {
    spdlog::register_logger(g_own);
  } catch (const spdlog::spdlog_ex&) {
    // Registered by another thread between the look-up and here: that one is the one.
    if (auto named = spdlog::get("framepacer")) g_own = std::move(named);
  }
  return g_own;
}

void set_logger(std::shared_ptr<spdlog::logger> host) {
  const std::lock_guard lock{g_mutex};  // both set under it: two calls at once leave them alike
  renderer::set_logger(host);           // the renderer's messages go where the engine's go
  g_host = std::move(host);
}

}  // namespace engine
