#include "engine/demo_keys.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "engine/log.hpp"
#include "pacer/policies.hpp"

namespace engine {

DemoKey demo_key(const InputEvent& e, Loop& loop, Scene& scene) {
  if (e.kind != InputEvent::Kind::key || !e.pressed()) return DemoKey::none;
  switch (e.key) {
    case keys::escape: return DemoKey::quit;
    case keys::space:
      loop.set_interpolate(!loop.interpolate());
      logger()->info("interpolation {}", loop.interpolate() ? "on" : "off");
      return DemoKey::handled;
    case 'X':
      loop.set_extrapolate(!loop.extrapolate());
      logger()->info("extrapolation {}", loop.extrapolate() ? "on" : "off");
      return DemoKey::handled;
    case 'P': {
      if (loop.policy().empty()) return DemoKey::none;
      const auto names = pacer::policy_names();
      const auto it = std::find(names.begin(), names.end(), loop.policy());
      const std::size_t next = it == names.end() ? 0 : (static_cast<std::size_t>(it - names.begin()) + 1) % names.size();
      loop.set_policy(names[next], loop.pacing());
      logger()->info("policy {}", names[next]);
      return DemoKey::handled;
    }
    case keys::equal:
    case keys::kp_add: logger()->info("load {}", scene.adjust_load(+1)); return DemoKey::handled;
    case keys::minus:
    case keys::kp_subtract: logger()->info("load {}", scene.adjust_load(-1)); return DemoKey::handled;
    default: return DemoKey::none;
  }
}

}  // namespace engine
