// A FrameTarget for the engine tests that presents to the simulator's virtual display on
// the manual clock: acquiring blocks as its swapchain does, so planned presents are held
// and frames queue, exactly as in pacer::simulate. Given a GPU cost, the GPU's queue is the
// simulator's too (pacer/gpu_queue.hpp): fences at acquire, wait_drawn, GPU times reported.
// Given a present call's cost, the call takes that time as the simulator's does.
//
//   engine::ManualClock clock;
//   VirtualDisplayTarget target{clock, pacer::parse_display("fifo:60").value()};
//   VirtualDisplayTarget gpu_bound{clock, spec, [](std::int64_t) { return 9'770'000ns; }};
#pragma once

#include <functional>

#include "engine/loop.hpp"
#include "pacer/display.hpp"
#include "pacer/gpu_queue.hpp"

class VirtualDisplayTarget final : public engine::FrameTarget {
 public:
  using GpuCost = std::function<pacer::Nanos(std::int64_t frame)>;
  /// `present_call`: the CPU time of each present call (SimCosts::present), empty for none.
  VirtualDisplayTarget(engine::ManualClock& clock, const pacer::DisplaySpec& spec, GpuCost gpu = {},
                       int frames_in_flight = 2, GpuCost present_call = {})
      : clock_{clock}, display_{spec}, gpu_cost_{std::move(gpu)}, call_cost_{std::move(present_call)},
        shown_at_issue_{spec.shown_at_issue()}, gpu_{frames_in_flight} {}
  bool acquire() override {
    clock_.set(gpu_.acquire(display_.acquire(clock_.now())));
    return true;
  }
  void draw(const engine::DrawList&) override {
    if (gpu_cost_) (void)gpu_.submit(drawn_, clock_.now(), gpu_cost_(drawn_));
    ++drawn_;
  }
  void wait_drawn() override { clock_.set(gpu_.ready(clock_.now())); }
  pacer::PresentResult present(std::int64_t frame) override {
    // The call takes its time; the frame is queued when it returns (offscreen: done when issued).
    const pacer::Nanos issued = clock_.now();
    if (call_cost_) clock_.advance(call_cost_(frame));
    const pacer::Presented p = display_.present(frame, gpu_.ready(shown_at_issue_ ? issued : clock_.now()));
    return {p.display, p.replaced};
  }
  pacer::TimingSource timing_source() const override { return pacer::TimingSource::virtual_time; }
  bool reports_gpu() const override { return static_cast<bool>(gpu_cost_); }
  void drain_gpu(const std::function<void(std::int64_t, pacer::Nanos)>& sink) override { gpu_.poll(clock_.now(), sink); }

 private:
  engine::ManualClock& clock_;
  pacer::DisplayModel display_;
  GpuCost gpu_cost_;
  GpuCost call_cost_;
  bool shown_at_issue_;  ///< DisplaySpec::shown_at_issue
  pacer::GpuQueue gpu_;
  std::int64_t drawn_ = 0;  ///< frames drawn: the next one's number
};
