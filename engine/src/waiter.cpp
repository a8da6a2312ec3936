#include "engine/waiter.hpp"

#include <algorithm>
#include <functional>
#include <thread>

#if defined(__linux__)
#include <sys/prctl.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace engine {

namespace {
void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}
}  // namespace

PreciseWaiter::PreciseWaiter(const Clock& clock, Config config)
    : clock_{clock}, config_{config}, margin_{config.initial_margin} {}

namespace {

/// Sleeps `d` with the calling thread's timer slack at 1 ns, then gives the thread its own
/// slack back. The slack (50 us by default) is added to every sleep of a thread; 1 ns makes
/// short sleeps wake on time, so the spin tail can be short. Set for the sleep only: a
/// thread's slack is inherited by the threads it makes, and the waiter runs on the host's
/// threads (until 2026-11-27 it was set for good where a waiter was made).
void sleep_with_fine_slack(Nanos d) {
#if defined(__linux__)
  const int slack = prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL);
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  std::this_thread::sleep_for(d);
  if (slack > 0) prctl(PR_SET_TIMERSLACK, static_cast<unsigned long>(slack), 0UL, 0UL, 0UL);
#else
  std::this_thread::sleep_for(d);
#endif
}

}  // namespace

void PreciseWaiter::learn(Nanos oversleep) {
  recent_[recent_next_] = std::max(oversleep, Nanos::zero());
  recent_next_ = (recent_next_ + 1) % recent_.size();
  recent_count_ = std::min(recent_count_ + 1, recent_.size());
  // The second-worst of the last 64 (about the 97th percentile): one preempted sleep
  // should not make the next 64 waits spin for milliseconds.
  std::array<Nanos, 64> sorted = recent_;
  const auto n = static_cast<std::ptrdiff_t>(recent_count_);
  const std::ptrdiff_t rank = n >= 2 ? 1 : 0;
  std::nth_element(sorted.begin(), sorted.begin() + rank, sorted.begin() + n, std::greater<>{});
  margin_ = std::clamp(sorted[static_cast<std::size_t>(rank)] + config_.guard, config_.min_margin, config_.max_margin);
}

void PreciseWaiter::wait_until(Nanos deadline) {
  const Nanos start = clock_.now();
  ++stats_.waits;
  if (start >= deadline) return;
  Nanos now = start;
  if (deadline - now > margin_) {
    const Nanos wake = deadline - margin_;
    sleep_with_fine_slack(wake - now);
    now = clock_.now();
    learn(now - wake);
    stats_.sleep += now - start;
  }
  const Nanos spin_start = now;
  while (now < deadline) {
    cpu_relax();
    now = clock_.now();
  }
  stats_.spin += now - spin_start;
  stats_.total += now - start;
  stats_.late += now - deadline;
  stats_.max_late = std::max(stats_.max_late, now - deadline);
}

void SleepWaiter::wait_until(Nanos deadline) {
  const Nanos start = clock_.now();
  ++stats_.waits;
  if (start >= deadline) return;
  std::this_thread::sleep_for(deadline - start);
  const Nanos now = clock_.now();
  stats_.sleep += now - start;
  stats_.total += now - start;
  stats_.late += now - deadline;
  stats_.max_late = std::max(stats_.max_late, now - deadline);
}

}  // namespace engine
