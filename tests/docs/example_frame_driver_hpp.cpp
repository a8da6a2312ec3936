// header: pacer/core/include/pacer/frame_driver.hpp
// links: framepacer::pacer
// run: yes
// The first usage example at the top of pacer/frame_driver.hpp, word for word between the
// two marks, on a host in virtual time with a 60 Hz FIFO display: 600 frames of 4 ms, every
// record logged once, in frame order, with its display time, one vblank after the one before.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "pacer/frame_driver.hpp"
#include "pacer/policies.hpp"

// The host the example leaves to the game: a virtual clock, a render of 4 ms, a present
// shown at the first vblank after it (queued behind the frame before), updates of 0.5 ms
// and waits that end on time.
struct MyHost final : pacer::FrameHost {
  static constexpr pacer::Nanos period{16'666'667};
  pacer::Nanos clock{0};
  pacer::Nanos last_shown{-1};
  int updates = 0;
  pacer::Nanos now() override { return clock; }
  bool acquire() override { return true; }
  void render(const pacer::FramePlan& plan) override {
    if (!(plan.alpha >= 0.0 && plan.alpha <= 1.0)) throw "alpha out of [0, 1]";
    clock += pacer::Nanos{4'000'000};
  }
  pacer::PresentResult present(std::int64_t) override {
    pacer::Nanos shown = (clock / period + 1) * period;
    if (last_shown >= pacer::Nanos::zero() && shown < last_shown + period) shown = last_shown + period;
    last_shown = shown;
    return {shown, std::nullopt};
  }
  void update(pacer::Nanos) override { ++updates, clock += pacer::Nanos{500'000}; }
  void wait_until(pacer::Nanos deadline) override { clock = deadline > clock ? deadline : clock; }
  pacer::TimingSource timing_source() const override { return pacer::TimingSource::virtual_time; }
};

int main() {
  struct {
    std::vector<pacer::FrameRecord> rows;
    void write(const pacer::FrameRecord& r) { rows.push_back(r); }
  } log;
  pacer::PolicyConfig cfg;
  cfg.adaptive.refresh_period = MyHost::period;
// [example]
// MyHost: the loop's pacer::FrameHost (its clock, acquire, render, present, update, wait)
MyHost host;
pacer::FrameDriver driver{host, [&](const pacer::FrameRecord& r) { log.write(r); }};
auto pacer = pacer::make_pacer("adaptive", cfg);        // pacer/policies.hpp
driver.use(*pacer);
for (int i = 0; i < 600; ++i) {
  if (!driver.render_frame()) break;                    // false: the host gave up (window closed)
  if (i + 1 < 600) driver.run_actions();                // updates and waits until the next frame
}
driver.finish();                                        // closes the last frame, flushes every record
// [example]
  if (log.rows.size() != 600) return 1;
  for (std::size_t i = 0; i < log.rows.size(); ++i) {
    const pacer::FrameRecord& r = log.rows[i];
    if (r.frame != static_cast<std::int64_t>(i) || r.policy != "adaptive" || !r.display) return 1;
    if (i > 0 && *r.display - *log.rows[i - 1].display != MyHost::period) return 1;
  }
  if (host.updates < 630 || host.updates > 645) return 1;  // 10 s of 1/64 s steps
  std::printf("600 records in order, one vblank apart; %d updates\n", host.updates);
  return 0;
}
