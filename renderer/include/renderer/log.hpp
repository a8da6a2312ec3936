// renderer/log.hpp - the spdlog logger the renderer writes its messages to (device choice,
// swapchain recreation, validation-layer reports). It never sets a pattern or a level: the
// logger's owner decides. By default it is spdlog's "framepacer" logger when one is
// registered (the engine's own; after a drop or spdlog::shutdown, the one last found), else
// spdlog's default logger; engine::set_logger sets it too, so a host that links the engine
// sets both with one call.
//
//   // with spdlog/spdlog.h: this header only declares spdlog::logger
//   renderer::set_logger(spdlog::get("my_game"));          // the renderer logs through the game's logger
//   renderer::logger()->info("swapchain {}x{}", 1280, 720);
//   renderer::set_logger(nullptr);                           // "framepacer" again, else spdlog's default
#pragma once

#include <memory>

namespace spdlog {
class logger;
}

namespace renderer {

/// The logger the renderer writes to: the one given to set_logger, else
/// spdlog::get("framepacer"), else the "framepacer" logger it last found there (dropped from
/// spdlog's registry since, by spdlog::drop, drop_all or shutdown: where the engine runs, the
/// engine's, which it registers again at its next message; a host's own that it dropped is
/// kept, and late messages still reach its sinks), else spdlog::default_logger(), else (spdlog
/// shut down before any "framepacer" was found) one with no sinks: never null. Safe from any
/// thread.
std::shared_ptr<spdlog::logger> logger();
/// Log through `host` from now on (nullptr: the default order above again).
void set_logger(std::shared_ptr<spdlog::logger> host);

}  // namespace renderer
