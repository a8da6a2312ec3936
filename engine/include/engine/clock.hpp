// engine/clock.hpp - where "now" comes from. The loop is the only place that reads it.
//
//   using namespace std::chrono_literals;      // 16ms
//   engine::SteadyClock clock;                 // real time, zero at construction
//   pacer::Nanos t = clock.now();              // ns since the run start
//   engine::ManualClock fake;  fake.advance(16ms);   // tests: time moves only when told
#pragma once

#include <chrono>

#include "pacer/time.hpp"

namespace engine {

using pacer::Nanos;

class Clock {
 public:
  virtual ~Clock() = default;
  /// Nanoseconds since the clock's origin (the run start).
  virtual Nanos now() const = 0;
};

/// std::chrono::steady_clock, zero at construction (or at reset()).
class SteadyClock final : public Clock {
 public:
  SteadyClock() : origin_{std::chrono::steady_clock::now()} {}
  Nanos now() const override {
    return std::chrono::duration_cast<Nanos>(std::chrono::steady_clock::now() - origin_);
  }
  void reset() { origin_ = std::chrono::steady_clock::now(); }
  std::chrono::steady_clock::time_point origin() const { return origin_; }

 private:
  std::chrono::steady_clock::time_point origin_;
};

/// A clock that moves only when told: for loop tests in virtual time.
class ManualClock final : public Clock {
 public:
  Nanos now() const override { return now_; }
  void advance(Nanos d) { now_ += d; }
  void set(Nanos t) { now_ = t; }

 private:
  Nanos now_{0};
};

}  // namespace engine
