#include "renderer/renderer.hpp"

namespace renderer {

std::optional<PresentMode> parse_present_mode(std::string_view name) {
  if (name == "fifo") return PresentMode::fifo;
  if (name == "fifo-relaxed") return PresentMode::fifo_relaxed;
  if (name == "mailbox") return PresentMode::mailbox;
  if (name == "immediate") return PresentMode::immediate;
  return std::nullopt;
}

std::string_view to_string(PresentMode mode) {
  switch (mode) {
    case PresentMode::fifo: return "fifo";
    case PresentMode::fifo_relaxed: return "fifo-relaxed";
    case PresentMode::mailbox: return "mailbox";
    case PresentMode::immediate: return "immediate";
  }
  return "fifo";
}

}  // namespace renderer
