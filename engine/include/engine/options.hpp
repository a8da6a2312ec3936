// engine/options.hpp - the command line every sample shares (docs/architecture.md, command-line conventions).
//
//   engine::Cli cli{"bouncing_balls", "Balls bouncing at a slow logic rate."};
//   int balls = 500;
//   cli.add_int("--balls", "N", "number of balls", balls, 1, 200'000);
//   engine::Options opt;
//   if (int code = cli.parse(argc, argv, opt); code >= 0) return code;  // --help, --version, usage error (2)
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pacer/policies.hpp"

namespace engine {

struct Options {
  std::int64_t frames = 0;          ///< --frames N (0: no limit)
  double duration_s = 0;            ///< --duration SECONDS (0: no limit)
  std::string policy = "adaptive";  ///< --policy NAME
  std::string present_mode = "fifo";  ///< --present-mode fifo|fifo-relaxed|mailbox|immediate
  std::string log_path;             ///< --log FILE
  std::string log_format = "native";  ///< --log-format native|presentmon|mangohud
  std::string trace_path;           ///< --trace FILE.json
  bool headless = false;            ///< --headless
  bool validation = false;          ///< --validation
  std::uint64_t seed = 1;           ///< --seed N
  int gpu = -1;                     ///< --gpu N
  std::uint32_t width = 1280, height = 720;  ///< --size WxH
  std::string capture_path;         ///< --capture FILE.ppm
  std::int64_t capture_frame = -1;  ///< --capture-frame N (default: the last frame)
  bool no_interpolation = false;    ///< --no-interpolation (Space toggles at run time)
  bool extrapolate = false;         ///< --extrapolate: the newest state projected forward (X toggles)
  bool render_thread = false;       ///< --render-thread: draw and present on a thread of their own
  bool quiet = false;               ///< --quiet: no status line each second
  bool overlay = false;             ///< --overlay: the on-screen pacing overlay from the start (F3 / O toggle it, with the demo keys)
  /// The demo keys (engine/demo_keys.hpp: Esc, Space, P, +/-; run_app adds F3 / O for the
  /// overlay). Opt-in: off unless a program turns them on (the balls samples do); with them
  /// off the scene gets every key.
  bool demo_keys = false;
  std::string waiter = "precise";   ///< --waiter precise|sleep
  double refresh_hz = -1;           ///< --refresh-hz HZ: the display's rate for whole-period intervals (0: none; default: the monitor's with fifo)
  std::int64_t resize_at = -1;      ///< --resize-at N: halve the window at frame N, restore at 2N (tests)
  std::string load_description;     ///< set by the sample: its load specs, for the run metadata
  /// Test only: renderer::RendererConfig::fault for run_app's renderer (a driver error
  /// reported at a frame, renderer/README.md); no flag sets it: the samples read FP_FAULT.
  std::string renderer_fault;
  pacer::PolicyConfig pacing;       ///< --step-ms, --interval-ms, --max-steps, --debt, --no-shrink, --pipeline-frames, --even-cadence
  /// --adaptive NAME=VALUE, repeatable: fields of the adaptive policies' config by name
  /// (pacer::set_knob; a duration as NAME_ms in ms), set after the config is fitted to the
  /// display, in this order; the run's sidecar keeps them (key "adaptive") for a replay.
  std::vector<std::string> adaptive;
};

/// The samples' flag table (CLI11 underneath, engine/cli.hpp's conventions): the flags a
/// sample adds plus the shared ones above, every number with a range (docs/reliability.md).
/// Making one sets SIGXFSZ to ignored for the process, for good: a file-size limit is then a
/// write error the log reports (exit 1, no torn row), not a kill. A program that fills
/// Options itself and calls run_app without a Cli keeps its own SIGXFSZ.
class Cli {
 public:
  Cli(std::string program, std::string description);
  ~Cli();
  Cli(const Cli&) = delete;
  Cli& operator=(const Cli&) = delete;

  void add_int(std::string flag, std::string metavar, std::string help, int& target, int min, int max);
  void add_double(std::string flag, std::string metavar, std::string help, double& target, double min, double max);
  void add_string(std::string flag, std::string metavar, std::string help, std::string& target);
  void add_bool(std::string flag, std::string help, bool& target);

  /// Parses into `out`. Returns -1 to go on, 0 after --help/--version (printed),
  /// 2 after a usage error (one line on stderr: "PROGRAM: --FLAG: WHY").
  int parse(int argc, char** argv, Options& out);
  std::string usage() const;
  /// Whether `flag` ("--step-ms") was on the command line (after parse()).
  bool given(const std::string& flag) const;
  /// A usage error after parse(): "PROGRAM: WHY" on stderr; returns 2.
  int usage_error(const std::string& why) const;

 private:
  struct Impl;
  void add_common(Options& out);

  std::string program_;
  std::unique_ptr<Impl> impl_;
};


}  // namespace engine
