// header: engine/include/engine/clock.hpp
// links: framepacer::engine_core
// run: yes
// The usage example of engine/clock.hpp, word for word between the two marks: the steady
// clock starts near zero and runs forward; the manual clock moves only by what it is told.
#include <cstdio>

#include "engine/clock.hpp"

int main() {
// [example]
using namespace std::chrono_literals;      // 16ms
engine::SteadyClock clock;                 // real time, zero at construction
pacer::Nanos t = clock.now();              // ns since the run start
engine::ManualClock fake;  fake.advance(16ms);   // tests: time moves only when told
// [example]
  if (t < pacer::Nanos{0} || clock.now() < t) return 1;
  if (fake.now() != pacer::Nanos{16'000'000}) return 1;
  std::printf("steady clock at %lld ns, manual clock at %.1f ms\n", static_cast<long long>(t.count()),
              pacer::to_ms(fake.now()));
  return 0;
}
