// pacer/gpu_queue.hpp - the GPU's queue in virtual time, as the engine's renderer has it.
//
// Each frame's GPU work runs after its render is submitted and after the frame before's
// GPU work, for its GPU time. A frame's acquire waits until the GPU has finished the frame
// frames_in_flight before it (the renderer's per-slot fences); the presentation engine
// shows a frame no sooner than its work ends; each GPU time is known once its work has
// ended, in order (timestamp queries). The simulator (SimCosts::gpu) and the engine tests'
// virtual target both run this model, so their loops see the same GPU.
//
//   using namespace std::chrono_literals;  // the time literals below (ms, ns)
//   pacer::GpuQueue gpu{2};
//   now = gpu.acquire(now);                 // the slot's fence
//   const pacer::Nanos done = gpu.submit(frame, now, 9'770'000ns);
//   gpu.poll(now, [&](std::int64_t f, pacer::Nanos t) { report(f, t); });   // once each, in order
#pragma once

#include <cstdint>
#include <deque>
#include <functional>

#include "pacer/time.hpp"

namespace pacer {

class GpuQueue {
 public:
  /// frames_in_flight below 1 counts as 1.
  explicit GpuQueue(int frames_in_flight = 2);

  /// When the next frame's slot is free: `now`, or later while the GPU still works on the
  /// frame frames_in_flight before it.
  Nanos acquire(Nanos now) const;
  /// Frame `frame`'s work (`cost`, negative counts as 0) submitted at `now`: returns when the
  /// GPU finishes it.
  Nanos submit(std::int64_t frame, Nanos now, Nanos cost);
  /// When the latest submitted frame's work is done (no earlier than `now`): when it can be
  /// shown, and when a wait for it (the engine's wait_drawn) returns.
  Nanos ready(Nanos now) const;
  /// Hands each frame whose work has ended by `now` (frame, GPU time) to `sink`, once, in order.
  void poll(Nanos now, const std::function<void(std::int64_t, Nanos)>& sink);

 private:
  struct Work {
    std::int64_t frame;
    Nanos done;  ///< when the GPU finished the frame's work
    Nanos cost;
    bool reported = false;
  };
  std::size_t in_flight_;
  std::deque<Work> work_;  ///< the frames whose fence or GPU time is still needed, in order
};

}  // namespace pacer
