// render_thread.hpp (engine-internal) - the thread that draws and presents in the loop's
// threaded mode (Loop::set_render_thread, docs/render-thread.md).
//
// The simulation thread (the loop's) fills a Job in the back slot of a triple buffer: the
// frame as the scene sees it, the scene's RenderState copy, the planned present, the
// overlay. post() publishes it; the render thread takes the newest job without a lock,
// draws it (Scene::render_state), holds the present to its planned time, presents, and
// hands back what the target learnt (display and GPU times) for the pacer's records.
// Before touching the target itself (acquire, a resize, a capture) the simulation thread
// calls wait_idle(): the render thread is then between jobs and leaves the target alone.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/clock.hpp"
#include "engine/frame_target.hpp"
#include "engine/scene.hpp"
#include "engine/triple_buffer.hpp"
#include "engine/waiter.hpp"

namespace engine {

class RenderThread {
 public:
  struct Job {
    std::uint64_t serial = 0;
    std::int64_t frame = 0;               ///< the loop's frame index (FrameTarget::present)
    FrameInfo info{};                     ///< plan == nullptr
    Nanos present_at{-1};                 ///< hold the present until then (the clock's time); negative: none
    Nanos offset{0};                      ///< loop time - clock time when posted
    std::unique_ptr<RenderState> state;   ///< the scene's copy (made once per slot)
    std::vector<Circle> overlay;          ///< drawn on top
  };
  struct Learnt {
    std::int64_t frame;
    Nanos at;  ///< loop time (display) or duration (GPU, ready)
  };

  /// Starts the thread. `clock` must run by itself (a real clock): the present hold waits on it.
  RenderThread(const Clock& clock, FrameTarget& target, Scene& scene);
  /// Stops and joins the thread (after the job in progress).
  ~RenderThread();
  RenderThread(const RenderThread&) = delete;
  RenderThread& operator=(const RenderThread&) = delete;

  /// The slot to fill for the next post() (simulation thread, after wait_idle()).
  Job& next_job() { return jobs_.back(); }
  /// Hands next_job() to the render thread.
  void post();
  /// Blocks until every posted job is drawn and presented; rethrows an exception the
  /// render thread caught (a lost device or surface) once.
  void wait_idle();
  /// Display times, GPU times and render times (this thread's work on a frame until it was
  /// ready to present) learnt since the last call, in order.
  void drain(std::vector<Learnt>& displays, std::vector<Learnt>& gpu, std::vector<Learnt>& ready);

 private:
  void main();
  void run(Job& job);

  const Clock& clock_;
  FrameTarget& target_;
  Scene& scene_;
  PreciseWaiter waiter_;   ///< the render thread's own, for the present hold
  TripleBuffer<Job> jobs_;
  DrawList draw_;
  std::vector<Learnt> scratch_displays_, scratch_gpu_;  ///< the render thread's, per job
  std::uint64_t serial_ = 0;                ///< the latest job posted (simulation thread)
  std::atomic<std::uint64_t> posted_{0};    ///< bumped by post() and by stop
  std::atomic<std::uint64_t> done_{0};      ///< the serial of the latest job finished
  std::atomic<bool> stop_{false};
  std::mutex learnt_mutex_;                 ///< guards the two lists and error_
  std::vector<Learnt> displays_, gpu_, ready_;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace engine
