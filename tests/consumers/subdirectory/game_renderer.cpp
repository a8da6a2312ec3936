// The game's own `renderer` target (a name framepacer must not take).
int game_renderer_draws() { return 1; }
