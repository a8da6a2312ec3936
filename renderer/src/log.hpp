// The logger the renderer writes to (internal): the engine's own, registered with spdlog as
// "framepacer" (engine::logger()), else spdlog's default one. The renderer never sets a
// pattern or a level: the host's logger decides.
#pragma once

#include <memory>

#include <spdlog/spdlog.h>

namespace renderer::detail {

inline std::shared_ptr<spdlog::logger> log() {
  if (auto engine = spdlog::get("framepacer")) return engine;
  return spdlog::default_logger();
}

}  // namespace renderer::detail
