// pacer/time.hpp - the time vocabulary of the pacer core.
//
// Every time in the core is an integer count of nanoseconds. A time *point* is
// the nanoseconds since the caller's run origin (the zero of its clock); a
// *duration* is a difference of two of them. Both are std::chrono::nanoseconds,
// so arithmetic stays exact and comparisons are exact.
//
//   using namespace pacer::literals;
//   pacer::Nanos frame_end = 16_ms;            // 16'000'000 ns after the origin
//   double shown = pacer::to_ms(frame_end);    // 16.0, for logs and reports only
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>

namespace pacer {

using Nanos = std::chrono::nanoseconds;

/// Milliseconds as a double: for logs, reports and alpha only, never for control.
constexpr double to_ms(Nanos t) { return static_cast<double>(t.count()) / 1e6; }

/// Rounds a millisecond value (from a flag or a trace file) to whole nanoseconds.
inline Nanos from_ms(double ms) { return Nanos{std::llround(ms * 1e6)}; }

/// Scales a duration by a factor, rounding to the nearest nanosecond.
inline Nanos scale(Nanos d, double factor) {
  return Nanos{std::llround(static_cast<double>(d.count()) * factor)};
}

namespace literals {
constexpr Nanos operator""_ms(unsigned long long v) { return Nanos{static_cast<std::int64_t>(v) * 1'000'000}; }
constexpr Nanos operator""_us(unsigned long long v) { return Nanos{static_cast<std::int64_t>(v) * 1'000}; }
constexpr Nanos operator""_ns(unsigned long long v) { return Nanos{static_cast<std::int64_t>(v)}; }
}  // namespace literals

}  // namespace pacer
