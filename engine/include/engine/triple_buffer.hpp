// engine/triple_buffer.hpp - one writer hands the newest value to one reader; neither
// ever waits on the other or on a lock.
//
// Three slots: the writer fills its back slot and publishes it (an atomic exchange with the
// middle slot); the reader takes the newest published slot (an exchange again, only when
// something new was published) and reads its front slot for as long as it likes. A value
// published twice before the reader looks replaces the first (the newest wins). The
// render thread takes the simulation's state snapshots this way (engine/render_thread.hpp).
//
//   engine::TripleBuffer<Snapshot> buf;
//   // writer thread                         // reader thread
//   buf.back() = make_snapshot();            if (buf.take()) draw(buf.front());
//   buf.publish();
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

namespace engine {

template <class T>
class TripleBuffer {
 public:
  TripleBuffer() = default;
  /// Every slot starts as a copy of `init` (reused slots keep their allocations).
  explicit TripleBuffer(const T& init) : slots_{init, init, init} {}
  TripleBuffer(const TripleBuffer&) = delete;
  TripleBuffer& operator=(const TripleBuffer&) = delete;

  // ---- the writer's side (one thread)
  /// The slot the writer fills; no reader sees it until publish().
  T& back() { return slots_[back_]; }
  /// Makes back() the newest value; back() is then another slot (holding an older value).
  void publish() {
    back_ = static_cast<std::uint8_t>(middle_.exchange(static_cast<std::uint8_t>(back_ | kFresh), std::memory_order_acq_rel) & kIndex);
  }

  // ---- the reader's side (one thread)
  /// true when a value newer than front() was published: front() is then that value.
  bool take() {
    if ((middle_.load(std::memory_order_acquire) & kFresh) == 0) return false;
    front_ = static_cast<std::uint8_t>(middle_.exchange(front_, std::memory_order_acq_rel) & kIndex);
    return true;
  }
  /// The newest value taken (a default or `init` one before the first take()).
  const T& front() const { return slots_[front_]; }
  T& front() { return slots_[front_]; }

 private:
  static constexpr std::uint8_t kIndex = 3, kFresh = 4;
  std::array<T, 3> slots_{};
  std::uint8_t back_ = 0;                 ///< the writer's slot
  std::uint8_t front_ = 1;                ///< the reader's slot
  std::atomic<std::uint8_t> middle_{2};   ///< the slot between them, | kFresh once published and not yet taken
};

}  // namespace engine
