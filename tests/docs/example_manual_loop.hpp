// A loop for a header example to attach to (tests/docs/example_*_hpp.cpp): engine::Loop on a
// manual clock with a null target, each draw advancing the clock by `per_draw`, and a scene
// (by default one that does nothing). Included after the header under test, so that header is compiled on its own.
#pragma once

#include "engine/loop.hpp"

namespace example {

struct Still final : engine::Scene {
  void fixed_update(pacer::Nanos) override {}
};

template <class SceneT = Still>
struct ManualLoop {
  engine::ManualClock clock;
  engine::ManualWaiter waiter{clock};
  engine::NullTarget target;
  SceneT scene;
  engine::Loop loop{clock, waiter, target, scene};
  explicit ManualLoop(pacer::Nanos per_draw) {
    target.on_draw = [this, per_draw] { clock.advance(per_draw); };
  }
};

}  // namespace example
