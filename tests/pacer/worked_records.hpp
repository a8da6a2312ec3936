// The worked timeline's records (docs/background.md's pacer, 3 ms renders, 1 ms updates),
// each shown 2 ms after its present: what the export and locale tests write.
//
//   std::vector<pacer::FrameRecord> records = worked_records(4);
#pragma once

#include <vector>

#include "pacer/simulator.hpp"
#include "configs.hpp"

inline std::vector<pacer::FrameRecord> worked_records(int frames) {
  using namespace pacer::literals;
  pacer::AdaptivePolicy p = seed_pacer();
  auto records = pacer::simulate(p, pacer::SimCosts::fixed(3_ms, 1_ms), frames).records;
  for (auto& r : records) r.display = r.present + 2_ms;
  return records;
}
