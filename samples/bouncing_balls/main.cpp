// bouncing_balls: the flipcode demo remade. Balls bounce around the window while
// their logic runs at a slow rate (25 Hz by default), so interpolation visibly
// matters: press Space to turn it off and watch them stutter.
//
//   bouncing_balls --frames 600 --present-mode immediate --policy adaptive --log run.csv
//   bouncing_balls --headless --pixel-test --frames 30 --capture f.ppm --log run.csv
#include "../common/balls_scene.hpp"

int main(int argc, char** argv) {
  return samples::run_balls_sample(
      argc, argv, "bouncing_balls",
      "Balls bouncing with slow logic (25 Hz) and interpolated rendering.\n"
      "Keys: Esc quits, Space toggles interpolation, P cycles policies, +/- change the render load.",
      "constant:0", "constant:0", "constant:0");
}
