// The game: its own renderer and engine libraries, and framepacer's adaptive policy.
#include <cstdio>

#include "pacer/policies.hpp"

int game_renderer_draws();
int game_engine_ticks();

int main() {
  auto policy = pacer::make_pacer("adaptive", pacer::PolicyConfig{});
  const bool ok = policy != nullptr && game_renderer_draws() == 1 && game_engine_ticks() == 2;
  std::printf("game: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
