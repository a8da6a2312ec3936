// A frame record as the overlay tests feed it: frame i of a steady 62.5 fps run, shown one
// 16 ms interval after it starts, with a GPU time. Used by tests/engine/test_overlay.cpp and
// tests/locale/test_locale.cpp.
#pragma once

#include <cstdint>

#include "pacer/pacer.hpp"

namespace test_overlay {

inline pacer::FrameRecord frame(std::int64_t i, pacer::Nanos gpu) {
  using namespace pacer::literals;
  pacer::FrameRecord r;
  r.frame = i;
  r.policy = "adaptive";
  r.cpu_start = i * 16_ms;
  r.interval = 16_ms;
  r.present = r.cpu_start + 5_ms;
  r.display = r.cpu_start + 16_ms;
  r.animation_time = r.cpu_start;
  r.gpu = gpu;
  return r;
}

}  // namespace test_overlay
