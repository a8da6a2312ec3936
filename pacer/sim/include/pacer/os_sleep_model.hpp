// pacer/os_sleep_model.hpp - how late a wait wakes up, in virtual time.
//
// A plain OS sleep overshoots its deadline: on the development machine (Linux,
// std::this_thread::sleep_for of 1-3 ms, 300 samples) the overshoot was 67 us at
// best, 84 us median, 120 us p90, 167 us p99 and 3.1 ms at worst. SleepModel draws
// from a distribution of that shape. The precise waiter (engine/) sleeps until
// `spin_margin` before the deadline and spins the rest, so it wakes within a few
// microseconds unless the sleep itself overshoots by more than the margin.
//
// All randomness comes from a seeded SplitMix64: the same seed gives the same wakes.
//
//   pacer::SleepModel sleep{pacer::WaiterKind::precise, 7};   // seed 7
//   pacer::Nanos woke = sleep.wake(now, deadline);            // >= deadline when now < deadline
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "pacer/random.hpp"
#include "pacer/time.hpp"

namespace pacer {

enum class WaiterKind {
  exact,    ///< wakes exactly at the deadline (the seed's virtual time; tests)
  sleep,    ///< a plain OS sleep: overshoots by tens of microseconds, sometimes milliseconds
  precise,  ///< sleep most of the wait, spin the tail: wakes within microseconds
};

/// "exact", "sleep", "precise"; nullopt otherwise.
std::optional<WaiterKind> parse_waiter(std::string_view text);
std::string_view to_string(WaiterKind kind);

class SleepModel {
 public:
  SleepModel(WaiterKind kind, std::uint64_t seed) : kind_{kind}, rng_{seed} {}

  WaiterKind kind() const { return kind_; }
  /// When a wait begun at `now` for `deadline` returns; `now` if the deadline has passed.
  Nanos wake(Nanos now, Nanos deadline);
  /// One draw of a plain sleep's overshoot (>= 0).
  Nanos sleep_overshoot();

  /// The precise waiter stops sleeping this long before the deadline and spins.
  static constexpr Nanos spin_margin{1'000'000};

 private:
  WaiterKind kind_;
  SplitMix64 rng_;
};

}  // namespace pacer
