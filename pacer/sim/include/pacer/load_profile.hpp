// pacer/load_profile.hpp - workloads: a cost per frame, from a one-line spec.
//
// Shared by pacer-sim (virtual costs) and the samples (real CPU work, GPU fragment
// work). Specs (docs/load-profiles.md):
//   constant:MS                      MS every frame
//   step:A,B@F                       A before frame F, B from frame F on
//   spike:BASE,PEAK/EVERY            BASE, with PEAK every EVERY-th frame (frames EVERY-1, 2*EVERY-1, ...)
//   ramp:A,B@F                       linear from A at frame 0 to B at frame F, then B
//   sine:MEAN,AMP/PERIOD             MEAN + AMP * sin(2 pi frame / PERIOD), never below 0
//   walk:MEAN,STEP[,seed=N]          random walk around MEAN (+-STEP per frame, pulled back to MEAN)
//   trace:FILE[,col=NAME][,scale=K][,loop]   a column of a CSV trace (frame_ms by default);
//                                    FILE may hold commas (the options are read from the end)
//   seq:N*SPEC;N*SPEC;...;SPEC       each SPEC for N frames, the last one for ever
//
//   pacer::LoadProfile p = pacer::LoadProfile::parse("spike:3,40/120", open_file);
//   pacer::Nanos cost = p.at(frame);
//
// A logged run's own costs, to replay it in virtual time:
//
//   pacer::NativeLog log = pacer::read_native_log(in, "run.csv");
//   pacer::SimCosts costs = pacer::replay_costs(log.records, pacer::from_ms(1.0));
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pacer/simulator.hpp"
#include "pacer/time.hpp"

namespace pacer {

/// A malformed spec or trace; what() is one line, naming the trace line where there is one.
class LoadSpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Opens a trace file for reading; returns nullptr when it cannot. pacer never opens files:
/// the caller passes this in (tools use std::ifstream).
using TraceOpener = std::function<std::unique_ptr<std::istream>(const std::string& path)>;

/// The largest number a load spec or a trace value may hold (ms for CPU costs, fragment
/// iterations for GPU load): 10 s a frame keeps virtual time far from overflow.
inline constexpr double kMaxLoadValue = 10'000;
/// The largest trace file trace_file_opener reads: 64 MiB.
inline constexpr std::uintmax_t kMaxTraceBytes = std::uintmax_t{64} << 20;

/// Reads one numeric column of a CSV trace (header line first). Throws LoadSpecError naming
/// `name:LINE` for a line that is not a number, a value out of [0, kMaxLoadValue], a
/// missing column or binary content (a NUL or other control byte). A UTF-8 BOM is skipped.
std::vector<double> read_trace_column(std::istream& in, std::string_view name, std::string_view column);

/// Opens trace files: `path` as given, then (relative paths) under each of `search_dirs`.
/// Refuses quickly, with the reason, what is not a regular file of at most kMaxTraceBytes
/// (a directory, /dev/zero, a FIFO, a huge file): throws LoadSpecError("trace 'PATH': WHY").
TraceOpener trace_file_opener(std::vector<std::string> search_dirs = {});

class LoadProfile {
 public:
  /// A zero load.
  LoadProfile();
  static LoadProfile parse(std::string_view spec, const TraceOpener& open);
  static LoadProfile constant(double ms);

  /// The cost of frame `frame` (>= 0), rounded to whole nanoseconds.
  Nanos at(std::int64_t frame) const;
  /// The same in milliseconds.
  double ms_at(std::int64_t frame) const;
  const std::string& spec() const { return spec_; }

  struct Node;  ///< implementation detail (shared, immutable after parse)

 private:
  std::shared_ptr<const Node> node_;
  std::string spec_;
};

/// The load of a scene: CPU cost per render, CPU cost per update, GPU work per frame.
struct LoadSet {
  LoadProfile render;
  LoadProfile update;
  LoadProfile gpu;  ///< units of the renderer's fragment knob, not milliseconds
};

/// Virtual costs for the simulator: render cost by frame, update cost by the frame it runs in.
SimCosts sim_costs(const LoadSet& load);

/// The costs a run's log measured, to replay that run in virtual time (`pacer-sim --replay`):
/// frame f renders for its ms_render less its present call (present_ms - present_issued_ms),
/// the call takes that time after any hold (SimCosts::present), each update after frame f
/// costs that frame's ms_update / sim_steps (a frame with no update: the run's mean per
/// update; a run with none: `no_updates`), and on the way to frame f the loop spends what
/// its record's cpu_start shows beyond the frame before's start, updates, render and waits
/// (SimCosts::between: the loop's own time, writing the log, running hooks, polling the
/// window; 0.05-0.14 ms a frame in the engine's job, spent after the present; the first
/// record has none before it, and `between(0)` is the run's mean). Frames past the last
/// record repeat the records.
/// A real log's ms_render already holds any wait for a swapchain image or for the GPU, so the
/// replay has no GPU cost, and a display that blocks acquires (fifo) adds its own wait: the
/// replay is exact where nothing blocks (immediate, offscreen). Throws std::invalid_argument
/// when `records` is empty.
SimCosts replay_costs(std::span<const FrameRecord> records, Nanos no_updates);

}  // namespace pacer
