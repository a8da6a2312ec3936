// A FrameTarget for the engine tests that presents to the simulator's virtual display on
// the manual clock: acquiring blocks as its swapchain does, so planned presents are held
// and frames queue, exactly as in pacer::simulate.
//
//   engine::ManualClock clock;
//   VirtualDisplayTarget target{clock, pacer::parse_display("fifo:60").value()};
#pragma once

#include "engine/loop.hpp"
#include "pacer/display.hpp"

class VirtualDisplayTarget final : public engine::FrameTarget {
 public:
  VirtualDisplayTarget(engine::ManualClock& clock, const pacer::DisplaySpec& spec) : clock_{clock}, display_{spec} {}
  bool acquire() override {
    clock_.set(display_.acquire(clock_.now()));
    return true;
  }
  void draw(const engine::DrawList&) override {}
  pacer::PresentResult present(std::int64_t frame) override {
    const pacer::Presented p = display_.present(frame, clock_.now());
    return {p.display, p.replaced};
  }
  pacer::TimingSource timing_source() const override { return pacer::TimingSource::virtual_time; }

 private:
  engine::ManualClock& clock_;
  pacer::DisplayModel display_;
};
