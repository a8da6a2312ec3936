// header: pacer/core/include/pacer/pacer.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/pacer.hpp, word for word between the two marks
// (ctest docs_example_pacer_hpp checks the header still quotes it), built with only the
// headers it names and run for 120 frames on a virtual clock.
#include <cstdio>
#include <optional>

#include "pacer/pacer.hpp"
#include "pacer/policies.hpp"

// What the example leaves to the game: a clock, a render, a present, a world, a waiter, a log.
static pacer::Nanos g_now{0};
static pacer::Nanos now() { return g_now; }
static void render(double alpha) {
  if (!(alpha >= 0.0 && alpha <= 1.0)) throw "alpha out of [0, 1]";
  g_now += pacer::Nanos{3'000'000};
}
static void wait_until(pacer::Nanos t) { g_now = t > g_now ? t : g_now; }
static void present() { g_now += pacer::Nanos{100'000}; }
static struct {
  int updates = 0;
  void update(pacer::Nanos) { ++updates, g_now += pacer::Nanos{500'000}; }
} world;
static struct {
  void wait_until(pacer::Nanos t) { ::wait_until(t); }
} waiter;
static std::optional<pacer::Nanos> new_step;
struct Done {};
static int g_logged = 0;
static void log(const pacer::FrameRecord&) {
  if (++g_logged == 120) throw Done{};
}

int main() {
  try {
// [example]
auto pacer = pacer::make_pacer("adaptive", {});  // pacer/policies.hpp
for (;;) {
  pacer::FramePlan plan = pacer->begin_frame(now());
  render(plan.alpha);                       // lerp(previous, current, alpha)
  pacer->end_render(now());                 // may widen the interval; work ends here
  if (plan.present_at > now()) { pacer::Nanos t = now(); wait_until(plan.present_at); pacer->hold_present(t, now()); }
  pacer::Nanos issued = now(); present(); pacer->set_presentation(issued, now(), std::nullopt, pacer::TimingSource::cpu);
  if (auto done = pacer->take_record()) log(*done);   // the previous frame, complete
  for (bool more = true; more;) {
    pacer::Action act = pacer->next(now());
    switch (act.kind) {
      case pacer::ActionKind::update: world.update(act.step); pacer->end_update(now()); break;
      case pacer::ActionKind::wait:   waiter.wait_until(act.until); pacer->observe_wake(act.until, now()); break;
      case pacer::ActionKind::render: more = false; break;
    }
  }
  if (new_step) pacer->set_step(*new_step); // between frames: a new fixed step, the state kept
}
// [example]
  } catch (const Done&) {
    std::printf("120 frames logged, %d updates\n", world.updates);
    return world.updates > 0 ? 0 : 1;
  } catch (const char* why) {
    std::printf("%s\n", why);
    return 1;
  }
}
