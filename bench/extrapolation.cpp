// bench/extrapolation.cpp - interpolation against extrapolation on the bouncing balls, in
// virtual time (docs/render-thread.md, docs/results.md).
//
// Each policy runs in the simulator on a display with a render cost; the frames' plans
// (previous and current simulation time, alpha, world time shown) are replayed on the
// bouncing balls of samples/common/ball_motion.hpp, whose fixed steps land exactly on a
// known path. For every ball in every frame:
//   interpolated  = lerp(state(previous), state(current), alpha)
//   extrapolated  = state(current) + velocity(current) x (world time shown - current)
// against the exact path at the world time shown: the position error (px), and the
// overshoot: how far the drawn ball reaches past a wall (px). Both modes show the same
// world time, so the animation error (ms, docs/log-format.md, Metrics) is one number per policy.
//
//   build/bench/extrapolation                          # the table of docs/results.md
//   build/bench/extrapolation --display fifo:144 --step-ms 16.667 --frames 1200
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../samples/common/ball_motion.hpp"
#include "engine/cli.hpp"
#include "pacer/policies.hpp"
#include "pacer/simulator.hpp"
#include "pacer/stats.hpp"

namespace {

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(std::min(k, v.size() - 1)), v.end());
  return v[std::min(k, v.size() - 1)];
}

struct ModeStats {
  std::vector<double> error;  ///< px, one per ball and frame
  double overshoot_max = 0;
  std::int64_t overshooting = 0, samples = 0;  ///< ball-frames drawn past a wall (> 0.5 px), all ball-frames
  void add(pacer::Vec2 shown, pacer::Vec2 truth, const samples::BallStart& b, double w, double h) {
    error.push_back(std::hypot(shown.x - truth.x, shown.y - truth.y));
    const double o = samples::overshoot(shown, b.radius, w, h);
    overshoot_max = std::max(overshoot_max, o);
    if (o > 0.5) ++overshooting;
    ++samples;
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::int64_t frames = 1200;
  int balls = 500;
  double step_ms = 40, render_ms = 4, width = 1280, height = 720;
  std::string display_spec = "fifo:60";
  std::uint64_t seed = 1;
  {
    CLI::App app{"Interpolation against extrapolation on the bouncing balls, in virtual time: position error "
                 "and overshoot past the walls per policy.",
                 "extrapolation"};
    fpcli::setup(app, FP_VERSION);
    app.add_option("--frames", frames, "frames per run (default 1200)")->type_name("N")->transform(fpcli::whole(10, 1'000'000));
    app.add_option("--balls", balls, "balls (default 500)")->type_name("N")->transform(fpcli::whole(1, 100'000));
    app.add_option("--step-ms", step_ms, "fixed step (default 40: the sample's 25 Hz logic)")->type_name("MS")->transform(fpcli::real(0.1, 1000));
    app.add_option("--render-ms", render_ms, "render cost per frame (default 4)")->type_name("MS")->transform(fpcli::real(0, 1000));
    app.add_option("--display", display_spec, "display (default fifo:60; pacer-sim's --display syntax)")->type_name("SPEC");
    app.add_option("--seed", seed, "the balls' seed (default 1: the sample's)")->type_name("N")->transform(fpcli::whole(0, fpcli::max_seed));
    if (const int code = fpcli::parse(app, argc, argv); code >= 0) return code;
  }
  const auto display = pacer::parse_display(display_spec);
  if (!display) {
    std::fprintf(stderr, "extrapolation: --display: '%s' is not a display (e.g. fifo:60, immediate, vrr:48-144)\n",
                 fpcli::printable(display_spec).c_str());
    return 2;
  }
  const std::vector<samples::BallStart> start = samples::spawn_balls(balls, width, height, seed);

  std::printf("Command: `build/bench/extrapolation --frames %lld --balls %d --step-ms %g --render-ms %g --display %s --seed %llu` "
              "(virtual time; %d balls of radius 4-14 px at 120-480 px/s in a %gx%g box)\n\n",
              static_cast<long long>(frames), balls, step_ms, render_ms, display_spec.c_str(),
              static_cast<unsigned long long>(seed), balls, width, height);
  std::printf("| policy | p99 \\|anim err\\| ms (both) | mode | p99 position error px | max position error px | "
              "ball-frames past a wall | max overshoot px |\n");
  std::printf("|---|---:|---|---:|---:|---:|---:|\n");
  for (const char* policy : {"adaptive", "accumulator-capped", "accumulator", "flipcode"}) {
    pacer::PolicyConfig cfg;
    cfg.sim.step = pacer::from_ms(step_ms);
    pacer::fit_to_display(cfg, *display);
    auto pacer = pacer::make_pacer(policy, cfg);
    pacer::SimOptions opt;
    opt.display = *display;
    opt.waiter = pacer::WaiterKind::precise;
    opt.seed = 7;
    const pacer::SimRun run = pacer::simulate(*pacer, pacer::SimCosts::fixed(pacer::from_ms(render_ms), pacer::Nanos{200'000}), frames, opt);
    const pacer::Summary summary = pacer::summarize(run.records);
    const pacer::Nanos origin = run.records.front().sim_previous;  // the world's time 0
    const auto seconds = [&](pacer::Nanos t) { return static_cast<double>((t - origin).count()) / 1e9; };
    ModeStats interp, extrap;
    for (const pacer::FrameRecord& r : run.records) {
      const double prev = seconds(r.sim_previous), cur = seconds(r.sim_current), shown = seconds(r.animation_time);
      for (const samples::BallStart& b : start) {
        pacer::Vec2 v_cur;
        const pacer::Vec2 p_prev = samples::exact_position(b, width, height, prev);
        const pacer::Vec2 p_cur = samples::exact_position(b, width, height, cur, &v_cur);
        const pacer::Vec2 truth = samples::exact_position(b, width, height, shown);
        const pacer::Vec2 lerp = p_prev + (p_cur - p_prev) * r.alpha;
        const pacer::Vec2 ahead = p_cur + v_cur * (shown - cur);
        interp.add(lerp, truth, b, width, height);
        extrap.add(ahead, truth, b, width, height);
      }
    }
    for (auto [name, m] : {std::pair{"interpolate", &interp}, std::pair{"extrapolate", &extrap}}) {
      std::printf("| %s | %.3f | %s | %.2f | %.2f | %.3f%% | %.2f |\n", policy, summary.anim_error_p99_ms, name,
                  percentile(m->error, 0.99), *std::max_element(m->error.begin(), m->error.end()),
                  100.0 * static_cast<double>(m->overshooting) / static_cast<double>(m->samples), m->overshoot_max);
    }
  }
  return 0;
}
