#include "render_thread.hpp"

#include <utility>

#if defined(__linux__)
#include <pthread.h>
#endif

namespace engine {

RenderThread::RenderThread(const Clock& clock, FrameTarget& target, Scene& scene)
    : clock_{clock}, target_{target}, scene_{scene}, waiter_{clock} {
  thread_ = std::thread{[this] { main(); }};
}

RenderThread::~RenderThread() {
  stop_.store(true, std::memory_order_release);
  posted_.fetch_add(1, std::memory_order_acq_rel);
  posted_.notify_one();
  thread_.join();
}

void RenderThread::post() {
  jobs_.back().serial = ++serial_;
  jobs_.publish();
  posted_.fetch_add(1, std::memory_order_acq_rel);
  posted_.notify_one();
}

void RenderThread::wait_idle() {
  for (std::uint64_t done = done_.load(std::memory_order_acquire); done != serial_;
       done = done_.load(std::memory_order_acquire))
    done_.wait(done, std::memory_order_acquire);
  std::exception_ptr error;
  {
    std::lock_guard lock{learnt_mutex_};
    error = std::exchange(error_, nullptr);
  }
  if (error) std::rethrow_exception(error);
}

void RenderThread::drain(std::vector<Learnt>& displays, std::vector<Learnt>& gpu, std::vector<Learnt>& ready) {
  std::lock_guard lock{learnt_mutex_};
  for (auto [from, to] : {std::pair{&displays_, &displays}, std::pair{&gpu_, &gpu}, std::pair{&ready_, &ready}}) {
    to->insert(to->end(), from->begin(), from->end());
    from->clear();
  }
}

void RenderThread::main() {
#if defined(__linux__)
  // Named for profilers, top -H and /proc/PID/task/*/comm (at most 15 characters).
  pthread_setname_np(pthread_self(), "fp-render");
#endif
  std::uint64_t seen = 0;
  for (;;) {
    posted_.wait(seen, std::memory_order_acquire);
    seen = posted_.load(std::memory_order_acquire);
    if (stop_.load(std::memory_order_acquire)) return;
    // The newest job; the simulation thread posts one at a time (it waits for the render
    // thread to be idle first), so none is ever skipped.
    if (!jobs_.take()) continue;
    Job& job = jobs_.front();
    try {
      run(job);
    } catch (...) {
      std::lock_guard lock{learnt_mutex_};
      if (!error_) error_ = std::current_exception();
    }
    done_.store(job.serial, std::memory_order_release);
    done_.notify_one();
  }
}

void RenderThread::run(Job& job) {
  const Nanos began = clock_.now();
  draw_.clear();
  scene_.render_state(job.info, *job.state, draw_);
  draw_.circles.insert(draw_.circles.end(), job.overlay.begin(), job.overlay.end());
  target_.draw(draw_);
  if (job.present_at >= Nanos::zero()) target_.wait_drawn();  // as on one thread: the GPU work first
  const Nanos drawn = clock_.now();
  if (job.present_at > drawn) waiter_.wait_until(job.present_at);
  const Nanos issued = clock_.now();
  const pacer::PresentResult shown = target_.present(job.frame);
  const Nanos returned = clock_.now();
  // The frame's render work here, the present call included, as on one thread (the hold
  // before it is not work): the pacer's render estimate, so it plans the present that long
  // after a frame's start. The simulation thread's own part (the wait for this thread, the
  // capture) is its ms_render.
  const Learnt ready{job.frame, (drawn - began) + (returned - issued)};
  std::vector<Learnt>& displays = scratch_displays_;  // gathered without the lock, reused
  std::vector<Learnt>& gpu = scratch_gpu_;
  displays.clear();
  gpu.clear();
  // When the frame was shown: the target's own answer (a virtual display, a present-wait),
  // else, where it learns none, when the present call returned (timing source cpu).
  if (shown.display) displays.push_back({job.frame, *shown.display + job.offset});
  else if (!target_.reports_display()) displays.push_back({job.frame, returned + job.offset});
  target_.drain_displayed([&](std::int64_t frame, Nanos at) { displays.push_back({frame, at + job.offset}); });
  target_.drain_gpu([&](std::int64_t frame, Nanos d) { gpu.push_back({frame, d}); });
  std::lock_guard lock{learnt_mutex_};
  displays_.insert(displays_.end(), displays.begin(), displays.end());
  gpu_.insert(gpu_.end(), gpu.begin(), gpu.end());
  ready_.push_back(ready);
}

}  // namespace engine
