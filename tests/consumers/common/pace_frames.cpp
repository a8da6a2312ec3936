// pace_frames - what every consumer test runs: the worked timeline (render 3 ms, update 1 ms,
// 5 ms steps, a 16 ms interval that never shrinks) paced by framepacer's core in virtual
// time through pacer::FrameDriver, checked to the letter. Links framepacer::pacer only;
// built with PACE_WITH_SIM_AND_FORMATS it also runs the same frames through the simulator
// (framepacer::sim) and writes their native log (framepacer::formats).
//
//   pace_frames [EXPECTED_VERSION]    exit 0 and "pace_frames: ok ..." when all is right
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "pacer/frame_driver.hpp"
#include "pacer/policies.hpp"
#include "pacer/version.hpp"
#ifdef PACE_WITH_SIM_AND_FORMATS
#include <sstream>

#include "pacer/log_writer.hpp"
#include "pacer/simulator.hpp"
#endif

namespace {

using pacer::Nanos;

std::string ms(Nanos t) { return std::to_string(t.count() / 1'000'000); }

// The loop around the driver: a clock that only moves when work or a wait moves it.
struct VirtualHost final : pacer::FrameHost {
  Nanos t{0};
  Nanos sim{0};
  std::string timeline;
  std::vector<double> alphas;

  void note(const std::string& event) { timeline += (timeline.empty() ? "" : " ") + event; }
  Nanos now() override { return t; }
  bool acquire() override { return true; }
  void render(const pacer::FramePlan& plan) override {
    note("R" + ms(t));
    alphas.push_back(plan.alpha);
    t += Nanos{3'000'000};
  }
  pacer::PresentResult present(std::int64_t) override { return {}; }
  void update(Nanos step) override {
    sim += step;
    note("U" + ms(sim));
    t += Nanos{1'000'000};
  }
  void wait_until(Nanos deadline) override {
    note("W" + ms(deadline));
    if (deadline > t) t = deadline;
  }
  pacer::TimingSource timing_source() const override { return pacer::TimingSource::virtual_time; }
};

}  // namespace

int main(int argc, char** argv) {
  pacer::PolicyConfig cfg;
  cfg.sim.step = Nanos{5'000'000};
  cfg.adaptive.initial_interval = Nanos{16'000'000};
  cfg.adaptive.shrink = false;
  auto policy = pacer::make_pacer("adaptive", cfg);
  if (!policy) {
    std::fprintf(stderr, "pace_frames: no adaptive policy\n");
    return 1;
  }

  VirtualHost host;
  std::vector<pacer::FrameRecord> records;
  pacer::FrameDriver driver{host, [&](const pacer::FrameRecord& r) { records.push_back(r); }};
  driver.use(*policy);
  for (int frame = 0; frame < 3; ++frame) {
    if (!driver.render_frame()) return 1;
    if (frame < 2) driver.run_actions();
  }
  driver.finish();

  int failures = 0;
  auto check = [&](bool ok, const char* what) {
    if (!ok) {
      std::fprintf(stderr, "pace_frames: FAILED: %s\n", what);
      ++failures;
    }
  };
  check(host.timeline == "R0 U5 U10 U15 U20 W16 R16 U25 U30 U35 W32 R32", "the worked timeline");
  auto near = [](double a, double b) { return a - b < 1e-12 && b - a < 1e-12; };
  check(host.alphas.size() == 3 && near(host.alphas[0], 1.0) && near(host.alphas[1], 0.2) &&
            near(host.alphas[2], 0.4),
        "alpha 1, 0.2, 0.4");
  check(records.size() == 3, "three records");
  check(records.size() == 3 && records[0].sim_steps == 4 && records[1].sim_steps == 3, "4 then 3 updates");
  check(records.size() == 3 && records[1].animation_time == Nanos{16'000'000}, "frame 1 shows t=16 ms");
#ifdef PACE_WITH_SIM_AND_FORMATS
  auto again = pacer::make_pacer("adaptive", cfg);
  const pacer::SimRun run = pacer::simulate(*again, pacer::SimCosts::fixed(Nanos{3'000'000}, Nanos{1'000'000}), 3);
  check(pacer::format_timeline(run.timeline) == host.timeline, "the simulator's timeline is the driver's");
  std::ostringstream log;
  pacer::NativeLogWriter writer{log};
  for (const pacer::FrameRecord& r : run.records) writer.write(r);
  const std::string text = log.str();
  check(text.rfind("frame,policy,timing_source,", 0) == 0, "the native log's header");
  check(std::count(text.begin(), text.end(), '\n') == 4, "a header and three rows");
#endif
  if (argc > 1) check(pacer::version == argv[1], "pacer::version is the expected version");
  std::printf("pace_frames: %s: %s (framepacer %s)\n", failures == 0 ? "ok" : "FAILED", host.timeline.c_str(),
              FRAMEPACER_VERSION);
  return failures == 0 ? 0 : 1;
}
