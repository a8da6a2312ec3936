// header: engine/include/engine/waiter.hpp
// links: framepacer::engine_core
// run: yes
// The usage example of engine/waiter.hpp, word for word between the two marks: one 5 ms wait
// returns at or after its deadline, counted once, its spin a part of the time waited.
#include <cstdio>

#include "engine/waiter.hpp"

int main() {
// [example]
using namespace std::chrono_literals;      // 5ms
engine::SteadyClock clock;
engine::PreciseWaiter waiter{clock};
waiter.wait_until(clock.now() + 5ms);      // returns within microseconds of the deadline
pacer::Nanos spun = waiter.stats().spin;   // how much of the waiting was spinning
// [example]
  const engine::WaitStats& s = waiter.stats();
  if (clock.now() < 5ms || s.waits != 1) return 1;
  if (spun < 0ns || spun > s.total || s.sleep + spun > s.total + 1us) return 1;
  std::printf("1 wait of %.2f ms, %.2f ms of it spun\n", pacer::to_ms(s.total), pacer::to_ms(spun));
  return 0;
}
