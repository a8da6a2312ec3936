// game_engine - a game linking framepacer::engine (Vulkan renderer, window, loop). The
// consumer tests run it with --version only (no window): proof that it links and that the
// engine reports the package's version.
#include "engine/app.hpp"
#include "engine/options.hpp"

namespace {
class Still final : public engine::Scene {
  void fixed_update(pacer::Nanos) override {}
  void render(double, engine::DrawList& out) override { out.circles.push_back({100.f, 100.f, 10.f, 0xffffffffu}); }
};
}  // namespace

int main(int argc, char** argv) {
  engine::Cli cli{"game_engine", "A consumer of framepacer::engine."};
  engine::Options options;
  if (int code = cli.parse(argc, argv, options); code >= 0) return code;
  Still scene;
  return engine::run_app(options, scene, "game_engine");
}
