// header: engine/include/engine/app.hpp
// links: framepacer::engine
// run: vulkan --headless --frames 60
// The usage example of engine/app.hpp, word for word between the two marks: a whole program
// around a small scene. Run with the arguments above where there is a Vulkan device (lavapipe in
// the tests): it renders 60 frames offscreen and exits 0 (without them it opens a window).
#include "engine/app.hpp"

struct MyScene final : engine::Scene {  // the game's: one still circle
  void fixed_update(pacer::Nanos) override {}
  void render(double, engine::DrawList& out) override { out.circles.push_back({640, 360, 20, 0xff8000ff}); }
};

// [example]
int main(int argc, char** argv) {
  engine::Cli cli{"my_game", "My game."};
  engine::Options options;
  if (int code = cli.parse(argc, argv, options); code >= 0) return code;
  MyScene scene;                       // an engine::Scene: fixed_update + render(alpha)
  return engine::run_app(options, scene, "my_game");
}
// [example]
