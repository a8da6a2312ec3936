// pacer/random.hpp - the one seeded generator of the core: SplitMix64. Every random draw
// (the sleep model's wake errors, the random-walk load) comes from it, so the same seed
// gives the same run on every platform.
//
//   pacer::SplitMix64 rng{7};
//   double u = rng.unit();            // [0, 1)
//   std::int64_t k = rng.below(100);  // [0, 100)
//   double d = pacer::frame_draw(7, 42, 1);  // frame 42's draw of stream 1: always the same
#pragma once

#include <cstdint>

namespace pacer {

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and the same on every platform.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_{seed} {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n) for n > 0 (modulo bias is negligible for the ranges used here).
  std::int64_t below(std::int64_t n) {
    return n <= 0 ? 0 : static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(n));
  }
  /// Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

/// A stateless per-frame draw in [0, 1): the same (seed, frame, stream) gives the same
/// value, so a synthetic load is a pure function of the frame (bench/compare's shapes, and
/// the tests that rebuild them).
inline double frame_draw(std::uint64_t seed, std::int64_t frame, std::uint64_t stream) {
  SplitMix64 rng{seed * 0x100000001b3ULL ^ (static_cast<std::uint64_t>(frame) << 8) ^ stream};
  rng.next();
  return rng.unit();
}

}  // namespace pacer
