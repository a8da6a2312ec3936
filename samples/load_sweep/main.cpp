// load_sweep: the balls scene walking through a sequence of loads - light, heavy,
// periodic spikes, then a real game's frame times - so the render interval can be
// seen adapting. Same flags as bouncing_balls; --render-load etc. replace the sweep.
//
//   load_sweep --duration 20 --log out/pacing.csv --trace out/trace.json
#include "../common/balls_scene.hpp"

int main(int argc, char** argv) {
  return samples::run_balls_sample(
      argc, argv, "load_sweep",
      "The balls scene under a sweep of loads: light, heavy, spikes, a real game trace.\n"
      "Keys: Esc quits, Space toggles interpolation, P cycles policies, +/- change the render load.",
      // 5 s each, in run time (every policy meets the same phases at the same moments):
      // 1 ms, 12 ms, 2 ms with a 45 ms spike once a second, then Cyberpunk 2077's frame
      // times (x0.5) on a loop from the phase's first frame.
      "seq:5s*constant:1;5s*constant:12;5s*spike:2,45/1s;"
      "trace:frameview_cyberpunk2077_dlssperf_4k.csv,scale=0.5,loop",
      "constant:0.2", "constant:0");
}
