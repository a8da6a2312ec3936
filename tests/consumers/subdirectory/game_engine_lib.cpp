// The game's own `engine` target (a name framepacer must not take).
int game_engine_ticks() { return 2; }
