// GPU times through the loop (issue 12): a target that measures the GPU time of each frame
// hands it over after the present, as the Vulkan target does once the frame's fence has
// signalled; the records carry it (ms_gpu) and the pacer is told (observe_gpu).
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "engine/loop.hpp"
#include "pacer/fixed_step.hpp"

using namespace engine;
using namespace pacer::literals;
using pacer::Nanos;

namespace {

/// Renders at once, waits 16 ms between frames; remembers what observe_gpu told it.
class Probe final : public pacer::Pacer {
 public:
  Probe() : Pacer("probe") {}
  std::vector<std::pair<std::int64_t, Nanos>> gpu;
  Nanos interval() const override { return 16_ms; }
  pacer::TimeAccount account() const override { return {}; }
  const pacer::FixedStepClock& clock() const override { return clock_; }

 protected:
  pacer::FramePlan on_begin_frame(Nanos now) override {
    pacer::FramePlan p;
    p.start = p.planned_start = now;
    return p;
  }
  void on_end_render(Nanos) override {}
  pacer::Action on_next(Nanos now) override {
    waited_ = !waited_;
    if (waited_) return {pacer::ActionKind::wait, Nanos{0}, now + 16_ms};
    return {};
  }
  void on_end_update(Nanos) override {}
  void on_observe_gpu(std::int64_t frame, Nanos t) override { gpu.emplace_back(frame, t); }

 private:
  pacer::FixedStepClock clock_{Nanos{0}, 5_ms};
  bool waited_ = false;
};

class Scene0 final : public Scene {
 public:
  void fixed_update(Nanos) override {}
  void render(double, DrawList&) override {}
};

/// Frame f takes 4 ms + f x 0.5 ms of GPU time, known once the loop drains it after the present.
class GpuTarget final : public FrameTarget {
 public:
  explicit GpuTarget(ManualClock& c) : clock_{c} {}
  bool acquire() override { return true; }
  void draw(const DrawList&) override { clock_.advance(2_ms); }
  pacer::PresentResult present(std::int64_t frame) override {
    done_.push_back(frame);
    return {};
  }
  bool reports_gpu() const override { return true; }
  void drain_gpu(const std::function<void(std::int64_t, Nanos)>& sink) override {
    for (std::int64_t f : done_) sink(f, 4_ms + f * Nanos{500'000});
    done_.clear();
  }

 private:
  ManualClock& clock_;
  std::vector<std::int64_t> done_;
};

}  // namespace

TEST(GpuTime, ReachesTheRecordsAndThePacer) {
  ManualClock clock;
  ManualWaiter waiter{clock};
  GpuTarget target{clock};
  Scene0 scene;
  Loop loop{clock, waiter, target, scene};
  std::vector<pacer::FrameRecord> records;
  loop.on_record = [&](const pacer::FrameRecord& r) { records.push_back(r); };
  auto owned = std::make_unique<Probe>();
  Probe& probe = *owned;
  loop.set_pacer(std::move(owned));
  loop.run({.max_frames = 12});
  ASSERT_EQ(records.size(), 12u);
  for (std::size_t i = 0; i < records.size(); ++i) {
    ASSERT_TRUE(records[i].gpu.has_value()) << i;
    EXPECT_EQ(*records[i].gpu, 4_ms + static_cast<std::int64_t>(i) * Nanos{500'000}) << i;
  }
  ASSERT_GE(probe.gpu.size(), 11u);
  for (std::size_t i = 0; i < probe.gpu.size(); ++i) {
    EXPECT_EQ(probe.gpu[i].first, static_cast<std::int64_t>(i)) << "in order, the pacer's frame numbers";
    EXPECT_EQ(probe.gpu[i].second, 4_ms + static_cast<std::int64_t>(i) * Nanos{500'000});
  }
}

TEST(GpuTime, ANullTargetLogsNone) {
  ManualClock clock;
  ManualWaiter waiter{clock};
  NullTarget target;
  Scene0 scene;
  Loop loop{clock, waiter, target, scene};
  std::vector<pacer::FrameRecord> records;
  loop.on_record = [&](const pacer::FrameRecord& r) { records.push_back(r); };
  loop.set_pacer(std::make_unique<Probe>());
  loop.run({.max_frames = 5});
  ASSERT_EQ(records.size(), 5u);
  for (const auto& r : records) EXPECT_FALSE(r.gpu.has_value());
}
