// engine/log.hpp - the engine's own spdlog logger. The engine never touches spdlog's
// default logger or its global pattern: it logs through "framepacer" (registered with
// spdlog, made on first use with its own pattern, on stdout), or through a logger the host
// hands it; set_logger hands it to the renderer too (renderer/log.hpp), so the renderer's
// messages, validation included, go where the engine's go.
//
//   // with spdlog/spdlog.h: this header only declares spdlog::logger
//   engine::logger()->info("loaded {} levels", n);          // [12:00:01.123] [info] loaded 3 levels
//   engine::set_logger(spdlog::get("my_game"));             // the engine logs through the game's logger
#pragma once

#include <memory>

namespace spdlog {
class logger;
}

namespace engine {

/// The logger the engine writes to: the host's (set_logger), else spdlog::get("framepacer"),
/// else a new "framepacer" logger on stdout with the pattern "[%H:%M:%S.%e] [%l] %v". When a
/// host drops "framepacer" from spdlog's registry (spdlog::drop, drop_all), the "framepacer"
/// logger the engine last wrote through is registered again at its next call, so the renderer,
/// which looks the name up, finds it too.
std::shared_ptr<spdlog::logger> logger();
/// Log through `host` from now on (nullptr: the engine's own "framepacer" logger again), the
/// renderer's messages too (renderer::set_logger).
void set_logger(std::shared_ptr<spdlog::logger> host);

}  // namespace engine
