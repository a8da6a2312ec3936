// Configurations the pacer tests share.
//
//   AdaptivePolicy p = seed_pacer();                 // the worked timeline's pacer
//   AdaptivePolicy q{my_config, step_5()};           // 5 ms simulation steps
#pragma once

#include "pacer/adaptive.hpp"
#include "pacer/time.hpp"

/// A 5 ms simulation step (round numbers in every expectation), with the given debt policy.
inline pacer::FixedStepConfig step_5(pacer::DebtPolicy debt = pacer::DebtPolicy::discard) {
  pacer::FixedStepConfig sim;
  sim.step = pacer::Nanos{5'000'000};
  sim.debt = debt;
  return sim;
}

/// The pacer of the seed's worked timeline (docs/background.md): a 16 ms interval that never
/// shrinks, 5 ms steps; blind to the display until one is observed.
inline pacer::AdaptivePolicy seed_pacer() {
  pacer::AdaptiveConfig cfg;
  cfg.initial_interval = pacer::Nanos{16'000'000};
  cfg.shrink = false;
  return pacer::AdaptivePolicy{cfg, step_5()};
}
