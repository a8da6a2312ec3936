// engine/app.hpp - run a Scene with a window (or offscreen), a Vulkan renderer, a
// pacer, the precise waiter, logs and a status line: what the samples call, and
// what an application linking engine::engine calls with its own Scene.
//
//   int main(int argc, char** argv) {
//     engine::Cli cli{"my_game", "My game."};
//     engine::Options options;
//     if (int code = cli.parse(argc, argv, options); code >= 0) return code;
//     MyScene scene;                       // an engine::Scene: fixed_update + render(alpha)
//     return engine::run_app(options, scene, "my_game");
//   }
//
// The scene gets the window's input (Scene::on_input), its loop (Scene::attached: pause,
// time scale, step, policy, stats) and the frame plan. Demo keys, opt-in
// (Options::demo_keys): Esc quits, Space toggles interpolation, P cycles policies, +/- change
// the load. Logging goes through engine::logger() ("framepacer"), never spdlog's default
// logger or global pattern. A game with its own renderer drives engine::Loop itself
// (docs/host-loop.md, samples/own_renderer).
// Exit codes: 0 success, 1 runtime failure (no Vulkan, no device, no display, a log that
// cannot be written, validation errors), 2 a usage error found before the run (two outputs
// naming one file, a second run_app at once), each with a one-line reason; logs are flushed.
// SIGINT / SIGTERM end the run at the next frame boundary: the log holds every whole frame,
// the sidecar is written, the trace closed, one line on stderr ("NAME: interrupted (SIGINT):
// N frames logged"), exit 130 / 143. A second signal exits at once. The handlers are
// installed for the call and the ones before put back when it returns, so one run_app at a
// time per process: a call while another runs (on another thread) returns 2 (a usage error,
// as a bad flag) at once with one line ("NAME: engine::run_app is already running in this
// process (one at a time)"), touching no handler and no output.
#pragma once

#include <string_view>

#include "engine/options.hpp"
#include "engine/scene.hpp"

namespace engine {

int run_app(const Options& options, Scene& scene, std::string_view app_name);

}  // namespace engine
