// The example docs/host-loop.md quotes (between the [example] marks), built and run: a loop
// the host owns drives engine::Loop one frame per call; the scene gets input, the frame
// plan, a variable update, pause and a time scale. On the manual clock here; a game puts
// engine::SteadyClock, engine::PreciseWaiter and its renderer in their places.
#include <gtest/gtest.h>

#include <vector>

#include "engine/loop.hpp"
#include "pacer/interpolation.hpp"

using namespace pacer::literals;

namespace {

// [example]
/// A ball moving right at 100 px per second of world time; Space pauses.
class Game final : public engine::Scene {
 public:
  void attached(engine::Loop& loop) override { loop_ = &loop; }
  void on_input(const engine::InputEvent& e) override {
    if (e.kind == engine::InputEvent::Kind::key && e.pressed() && e.key == engine::keys::space)
      loop_->paused() ? loop_->resume() : loop_->pause();
  }
  void fixed_update(pacer::Nanos step) override {  // world state changes only here
    x_.set(x_.current() + 100.0 * pacer::to_ms(step) / 1000.0);
  }
  void update(pacer::Nanos dt, const engine::FrameInfo& frame) override {
    camera_ += 50.0 * pacer::to_ms(dt) / 1000.0;           // world-time motion: stops when paused
    blink_ += pacer::to_ms(frame.real_dt) / 1000.0;        // UI motion: runs on when paused
  }
  void render_frame(const engine::FrameInfo& frame, engine::DrawList& out) override {
    shown = x_.at(frame.alpha);                            // the world at frame.world_time
    out.circles.push_back({static_cast<float>(shown - camera_), 100, 10, 0xff8000ff});
  }
  double shown = 0;

 private:
  engine::Loop* loop_ = nullptr;
  pacer::Interpolated<double> x_{0.0};
  double camera_ = 0, blink_ = 0;
};

/// The host's own loop (SDL's, an editor's): its events, then one engine frame per turn.
int host_loop(engine::Loop& loop, const std::vector<std::vector<engine::InputEvent>>& events_per_turn) {
  int turn = 0;
  for (bool running = true; running; ++turn) {
    if (turn < static_cast<int>(events_per_turn.size()))
      for (const engine::InputEvent& e : events_per_turn[static_cast<std::size_t>(turn)]) loop.push_input(e);
    if (turn == 240) loop.set_time_scale(0.5);             // slow motion from here on
    running = loop.frame() && turn + 1 < 480;              // false: the pacer's host gave up (window closed)
  }
  loop.finish();                                           // the last frame's record, as run() would
  return turn;
}
// [example]

}  // namespace

TEST(HostLoopExample, AHostOwnedLoopWithPauseAndSlowMotion) {
  // [example setup]
  engine::ManualClock clock;            // a game: engine::SteadyClock
  engine::ManualWaiter waiter{clock};   // a game: engine::PreciseWaiter waiter{clock}
  engine::NullTarget target;            // a game: its renderer (an engine::FrameTarget)
  target.on_draw = [&] { clock.advance(4_ms); };
  Game game;
  engine::Loop loop{clock, waiter, target, game};
  pacer::PolicyConfig cfg;
  cfg.sim.step = 10_ms;
  cfg.adaptive.initial_interval = 16_ms;
  loop.set_policy("adaptive", cfg);
  std::vector<std::vector<engine::InputEvent>> events(200);
  engine::InputEvent space;
  space.key = engine::keys::space;
  events[60].push_back(space);   // pause at turn 60 ...
  events[120].push_back(space);  // ... resume at turn 120
  std::vector<pacer::FrameRecord> records;
  loop.on_record = [&](const pacer::FrameRecord& r) { records.push_back(r); };
  // [example setup]

  EXPECT_EQ(host_loop(loop, events), 480);
  EXPECT_EQ(records.size(), 480u);
  EXPECT_FALSE(loop.paused());
  EXPECT_EQ(loop.time_scale(), 0.5);
  // World time: real time at 1x until the pause (turn 60) and from the resume (turn 120) to
  // turn 240, at 0.5x after; the paused frames add nothing. Within a few 10 ms steps.
  const auto at = [&](std::size_t i) { return pacer::to_ms(records[i].cpu_start) / 1000.0; };
  const double expect_s = (at(60) - at(0)) + (at(240) - at(120)) + 0.5 * (at(479) - at(240));
  const double world_s = pacer::to_ms(loop.last_frame().world_time) / 1000.0;
  EXPECT_NEAR(world_s, expect_s, 0.05);
  EXPECT_NEAR(game.shown, 100.0 * world_s, 1.5);
  EXPECT_GT(loop.stats().fps(), 30.0);
}
