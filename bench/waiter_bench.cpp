// waiter_bench: how precisely each waiter wakes at an absolute deadline, and what
// it costs in spinning. Real time, so it is a benchmark, never a test.
//
//   build/bench/waiter_bench [--waits N] [--wait-ms MS]
//   prints, per waiter (plain sleep, raylib's 95% sleep + 5% busy-wait, ours), the wake
//   error percentiles and the share of the waiting spent spinning.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "engine/waiter.hpp"
#include "pacer/stats.hpp"

namespace {

/// raylib's WaitTime with SUPPORT_PARTIALBUSY_WAIT_LOOP: sleep 95% of the wait, busy-wait
/// the remaining 5% (rcore.c). Re-implemented here from that rule, for comparison.
class PartialBusyWaiter final : public engine::Waiter {
 public:
  explicit PartialBusyWaiter(const engine::Clock& clock) : clock_{clock} {}
  void wait_until(pacer::Nanos deadline) override {
    const pacer::Nanos start = clock_.now();
    ++stats_.waits;
    if (start >= deadline) return;
    const pacer::Nanos wait = deadline - start;
    std::this_thread::sleep_for(wait - wait / 20);
    const pacer::Nanos woke = clock_.now();
    pacer::Nanos now = woke;
    while (now < deadline) now = clock_.now();
    stats_.sleep += woke - start;
    stats_.spin += now - woke;
    stats_.total += now - start;
  }
  const engine::WaitStats& stats() const override { return stats_; }

 private:
  const engine::Clock& clock_;
  engine::WaitStats stats_;
};

template <typename W>
void measure(const char* name, int waits, double wait_ms) {
  engine::SteadyClock clock;
  W waiter{clock};
  std::vector<double> late_us;
  late_us.reserve(static_cast<std::size_t>(waits));
  pacer::Nanos deadline = clock.now();
  const pacer::Nanos period = pacer::from_ms(wait_ms);
  for (int i = 0; i < waits; ++i) {
    // Some work first, like a frame, then wait for the next period boundary.
    volatile double sink = 0;
    for (int k = 0; k < 20000; ++k) sink = sink + k * 1e-9;
    deadline += period;
    waiter.wait_until(deadline);
    late_us.push_back(pacer::to_ms(clock.now() - deadline) * 1000.0);
  }
  const engine::WaitStats& s = waiter.stats();
  std::printf("%-8s %d waits of %.3f ms: late p50 %.1f us, p99 %.1f us, max %.1f us; spinning %.1f%% of the waiting\n",
              name, waits, wait_ms, pacer::percentile(late_us, 50), pacer::percentile(late_us, 99),
              *std::max_element(late_us.begin(), late_us.end()),
              s.total.count() > 0 ? 100.0 * static_cast<double>(s.spin.count()) / static_cast<double>(s.total.count()) : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  int waits = 600;
  double wait_ms = 5.0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--waits") waits = std::max(1, std::atoi(argv[i + 1]));
    else if (a == "--wait-ms") wait_ms = std::max(0.01, std::atof(argv[i + 1]));
  }
  measure<engine::SleepWaiter>("sleep", waits, wait_ms);
  measure<PartialBusyWaiter>("raylib", waits, wait_ms);
  measure<engine::PreciseWaiter>("precise", waits, wait_ms);
  return 0;
}
