// engine/demo_keys.hpp - the samples' demo keys, opt-in (engine::Options::demo_keys, off by
// default): Esc quits, Space toggles interpolation, X extrapolation, P cycles the policies, +/- change the
// scene's load. A game leaves them off and handles its keys in Scene::on_input.
//
//   for (const engine::InputEvent& e : window.poll()) {
//     const engine::DemoKey k = demo_keys ? engine::demo_key(e, loop, scene) : engine::DemoKey::none;
//     if (k == engine::DemoKey::quit) return false;
//     if (k == engine::DemoKey::none) loop.push_input(e);    // the scene sees the rest
//   }
#pragma once

#include "engine/input.hpp"
#include "engine/loop.hpp"
#include "engine/scene.hpp"

namespace engine {

enum class DemoKey { none, handled, quit };

/// Acts on a demo key press (logging what it did through engine::logger()); none for any
/// other event. P needs a policy set by name (Loop::set_policy).
DemoKey demo_key(const InputEvent& event, Loop& loop, Scene& scene);

}  // namespace engine
