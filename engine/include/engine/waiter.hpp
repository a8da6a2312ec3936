// engine/waiter.hpp - waiting for an absolute deadline, precisely and cheaply.
//
// The PreciseWaiter sleeps most of a wait and spins the tail. It measures how
// late each sleep wakes (the oversleep) and sizes the spin from the second-worst
// of the last 64 oversleeps plus a small guard, so it spins only as long as this
// machine needs, and one preempted sleep does not inflate it. On Linux it also lowers the
// thread's timer slack to 1 ns for each sleep (the default 50 us slack is the largest part of
// a short sleep's error), and gives the thread its own slack back after it.
//
//   using namespace std::chrono_literals;      // 5ms
//   engine::SteadyClock clock;
//   engine::PreciseWaiter waiter{clock};
//   waiter.wait_until(clock.now() + 5ms);      // returns within microseconds of the deadline
//   pacer::Nanos spun = waiter.stats().spin;   // how much of the waiting was spinning
#pragma once

#include <array>
#include <cstdint>

#include "engine/clock.hpp"

namespace engine {

struct WaitStats {
  std::int64_t waits = 0;
  Nanos total{0};  ///< time spent inside wait_until
  Nanos sleep{0};  ///< of which sleeping
  Nanos spin{0};   ///< of which spinning
  Nanos late{0};   ///< sum of (return time - deadline)
  Nanos max_late{0};
};

class Waiter {
 public:
  virtual ~Waiter() = default;
  /// Returns at or after `deadline` (a time on the loop's clock); at once if it has passed.
  virtual void wait_until(Nanos deadline) = 0;
  virtual const WaitStats& stats() const = 0;
};

/// Sleep for most of the wait, spin the tail.
class PreciseWaiter final : public Waiter {
 public:
  struct Config {
    Nanos initial_margin{1'000'000};  ///< spin margin before any oversleep was measured
    Nanos guard{50'000};              ///< added to the worst recent oversleep
    Nanos min_margin{1'000'000};     ///< a loaded 2-core machine oversleeps 0.3-2 ms about 1% of the time
    Nanos max_margin{4'000'000};
  };
  explicit PreciseWaiter(const Clock& clock) : PreciseWaiter{clock, Config{}} {}
  PreciseWaiter(const Clock& clock, Config config);

  void wait_until(Nanos deadline) override;
  const WaitStats& stats() const override { return stats_; }
  /// The spin margin in force: the tail of each wait that is spun, not slept.
  Nanos margin() const { return margin_; }

 private:
  void learn(Nanos oversleep);

  const Clock& clock_;
  Config config_;
  Nanos margin_;
  std::array<Nanos, 64> recent_{};  ///< recent oversleeps
  std::size_t recent_count_ = 0, recent_next_ = 0;
  WaitStats stats_;
};

/// A plain sleep_until, for comparison (what most loops do).
class SleepWaiter final : public Waiter {
 public:
  explicit SleepWaiter(const Clock& clock) : clock_{clock} {}
  void wait_until(Nanos deadline) override;
  const WaitStats& stats() const override { return stats_; }

 private:
  const Clock& clock_;
  WaitStats stats_;
};

/// For tests: waiting moves the manual clock to the deadline.
class ManualWaiter final : public Waiter {
 public:
  explicit ManualWaiter(ManualClock& clock) : clock_{clock} {}
  void wait_until(Nanos deadline) override {
    ++stats_.waits;
    if (deadline > clock_.now()) {
      stats_.total += deadline - clock_.now();
      clock_.set(deadline);
    }
  }
  const WaitStats& stats() const override { return stats_; }

 private:
  ManualClock& clock_;
  WaitStats stats_;
};

}  // namespace engine
