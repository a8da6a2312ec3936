// The logger the renderer writes to (internal): renderer::logger() (renderer/log.hpp): the
// host's, else "framepacer" (engine::logger()), else spdlog's default one. The renderer never
// sets a pattern or a level: the host's logger decides.
#pragma once

#include <memory>

#include <spdlog/spdlog.h>

#include "renderer/log.hpp"

namespace renderer::detail {

inline std::shared_ptr<spdlog::logger> log() { return renderer::logger(); }

}  // namespace renderer::detail
