// Work a frame does off the loop's thread (a render thread, the GPU) reaches the adaptive
// policy through observe_gpu; two reports for one frame (a render thread's render time and
// its GPU time, in either order) count as the longer, never the later.
#include <gtest/gtest.h>

#include "pacer/adaptive.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

/// 60 frames with a 3 ms render on the loop's thread; `report(p, frame)` tells the policy
/// of the previous frame's work elsewhere. Returns the render estimate.
template <class Report>
Nanos estimate_after(Report report) {
  AdaptiveConfig cfg;
  cfg.refresh_period = Nanos{16'666'667};
  cfg.initial_interval = 20_ms;
  FixedStepConfig sim;
  sim.step = 5_ms;
  AdaptivePolicy p{cfg, sim};
  Nanos now{0};
  for (std::int64_t f = 0; f < 60; ++f) {
    const FramePlan plan = p.begin_frame(now);
    (void)p.take_record();
    now += 3_ms;
    p.end_render(now);
    if (plan.present_at > now) now = plan.present_at;
    p.set_presentation(now, now, TimingSource::virtual_time);
    if (f > 0) report(p, f - 1);
    for (Action a = p.next(now); a.kind != ActionKind::render; a = p.next(now)) {
      if (a.kind == ActionKind::update) {
        now += 500_us;
        p.end_update(now);
      } else {
        now = std::max(now, a.until);
      }
    }
  }
  return p.render_estimate();
}

}  // namespace

TEST(AsyncRender, TwoReportsForOneFrameCountAsTheLonger) {
  const Nanos longer_first = estimate_after([](AdaptivePolicy& p, std::int64_t f) {
    p.observe_gpu(f, 12_ms);  // the render thread's render time
    p.observe_gpu(f, 2_ms);   // then the frame's GPU time, shorter
  });
  const Nanos shorter_first = estimate_after([](AdaptivePolicy& p, std::int64_t f) {
    p.observe_gpu(f, 2_ms);
    p.observe_gpu(f, 12_ms);
  });
  EXPECT_GE(longer_first, 12_ms);
  EXPECT_EQ(longer_first, shorter_first);
  // An older frame's report, arriving late, changes nothing.
  const Nanos late_old = estimate_after([](AdaptivePolicy& p, std::int64_t f) {
    p.observe_gpu(f, 12_ms);
    if (f > 0) p.observe_gpu(f - 1, 30_ms);
  });
  EXPECT_EQ(late_old, longer_first);
}
