// header: pacer/sim/include/pacer/os_sleep_model.hpp
// links: framepacer::sim
// run: yes
// The usage example at the top of pacer/os_sleep_model.hpp, word for word between the two
// marks: a precise wait for a deadline 5 ms away wakes at or after it and within the spin
// margin (seed 7 draws no sleep that overshoots it), and the same seed gives the same wake.
#include <cstdio>

#include "pacer/os_sleep_model.hpp"

// What the example leaves to the loop: when the wait begins, and its deadline.
static pacer::Nanos wait_once(pacer::Nanos now, pacer::Nanos deadline) {
// [example]
pacer::SleepModel sleep{pacer::WaiterKind::precise, 7};   // seed 7
pacer::Nanos woke = sleep.wake(now, deadline);            // >= deadline when now < deadline
// [example]
  return woke;
}

int main() {
  const pacer::Nanos now{10'000'000}, deadline{15'000'000};
  const pacer::Nanos woke = wait_once(now, deadline);
  if (woke < deadline || woke != wait_once(now, deadline)) return 1;
  if (woke > deadline + pacer::SleepModel::spin_margin) return 1;
  if (wait_once(deadline, now) != deadline) return 1;  // the deadline has passed: wakes at once
  std::printf("precise wait for 15 ms woke at %.6f ms, the same every time\n", pacer::to_ms(woke));
  return 0;
}
