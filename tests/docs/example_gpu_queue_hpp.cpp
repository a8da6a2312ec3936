// header: pacer/sim/include/pacer/gpu_queue.hpp
// links: framepacer::sim
// run: yes
// The usage example at the top of pacer/gpu_queue.hpp, word for word between the two marks:
// frame 0's 9.77 ms of GPU work ends 9.77 ms after its submit and is reported once it has
// ended, and with two frames in flight frame 2's acquire waits for frame 0's fence.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

#include "pacer/gpu_queue.hpp"

using namespace std::chrono_literals;

// What the example leaves to the loop: the reports' receiver.
static std::vector<std::pair<std::int64_t, pacer::Nanos>> g_reported;
static void report(std::int64_t frame, pacer::Nanos gpu_time) { g_reported.emplace_back(frame, gpu_time); }

int main() {
  pacer::Nanos now{2'000'000};
  const std::int64_t frame = 0;
// [example]
using namespace std::chrono_literals;  // the time literals below (ms, ns)
pacer::GpuQueue gpu{2};
now = gpu.acquire(now);                 // the slot's fence
const pacer::Nanos done = gpu.submit(frame, now, 9'770'000ns);
gpu.poll(now, [&](std::int64_t f, pacer::Nanos t) { report(f, t); });   // once each, in order
// [example]
  if (now != 2ms || done != 11'770'000ns || !g_reported.empty()) return 1;  // not ended yet
  gpu.poll(done, report);
  gpu.poll(done + 1ms, report);                                             // once only
  if (g_reported.size() != 1 || g_reported[0] != std::pair{std::int64_t{0}, pacer::Nanos{9'770'000ns}}) return 1;
  gpu.submit(1, 3ms, 1ms);                                 // queued behind frame 0: ends at 12.77 ms
  if (gpu.acquire(4ms) != done) return 1;                  // frame 2 waits for frame 0's fence
  std::printf("frame 0: GPU done at %.2f ms, reported once; frame 2's acquire waits until then\n",
              pacer::to_ms(done));
  return 0;
}
