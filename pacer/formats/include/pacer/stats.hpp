// pacer/stats.hpp - the metrics of docs/log-format.md over frame records.
//
// shown(i) is the display time where known, else the present time. Over the
// frames after a warm-up: frame interval shown(i) - shown(i-1); animation error
// (animation_time(i) - animation_time(i-1)) - (shown(i) - shown(i-1)); lateness
// cpu_start - planned_start; stutter as CapFrameX counts it.
//
//   pacer::Summary s = pacer::summarize(records, {.warmup_frames = 30});
//   std::printf("%.1f fps, p99 |anim err| %.3f ms\n", s.average_fps, s.anim_error_p99_ms);
//
// Streaming, in memory that does not grow with the run (a 10-hour run as a 10-second one):
//
//   pacer::SummaryBuilder b{{.warmup_frames = 30}};
//   for (...) b.add(record);           // one record at a time
//   pacer::Summary s = b.result();
//
// Percentiles are exact (nearest rank, as percentile()) up to QuantileSketch::exact_limit
// values; beyond it they come from a log-scale histogram with relative error <= 0.1%.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <vector>

#include "pacer/pacer.hpp"

namespace pacer {

struct StatsOptions {
  std::int64_t warmup_frames = 0;  ///< frames skipped at the start
  /// A frame interval over stutter_factor x the moving average is a stutter (CapFrameX: 2.5).
  double stutter_factor = 2.5;
  /// Frames in the moving average the stutter test compares against.
  int stutter_window = 20;
};

struct Summary {
  std::int64_t frames = 0;        ///< frames after the warm-up
  double duration_ms = 0;         ///< shown(last) - shown(first)
  double average_fps = 0;         ///< (frames - 1) / duration
  double interval_mean_ms = 0, interval_p50_ms = 0, interval_p99_ms = 0, interval_max_ms = 0;
  double anim_error_p50_ms = 0, anim_error_p99_ms = 0, anim_error_max_ms = 0;  ///< of |animation error|
  double lateness_p50_ms = 0, lateness_p99_ms = 0;
  double latency_p50_ms = 0;  ///< p50 of shown - cpu_start: how long before its display a frame starts
  std::int64_t stutters = 0;
  double stutter_time_pct = 0;    ///< time in stuttering intervals, % of the run
  double p1_fps = 0, p01_fps = 0;  ///< 1% / 0.1% percentile fps (99th / 99.9th percentile frame time)
  double low1_fps = 0, low01_fps = 0;  ///< 1% / 0.1% low: average fps of the slowest 1% / 0.1% of frames
  double busy_share = 0, wait_share = 0;   ///< (render + update) / the loop's time (first frame start to last); wait / it
  std::int64_t interval_changes = 0;
  double interval_changes_per_min = 0;
  std::int64_t sim_steps = 0;
  double dropped_ms = 0;
};

/// CapFrameX's stutter rule, one frame interval at a time: an interval over factor x the
/// average of the preceding `window` intervals is a stutter. summarize() and the Chrome
/// trace's stutter instants both use it. "Over" is read at the microsecond (tolerance_ms),
/// the precision of the capture tools' millisecond columns: on a vblank grid an interval of
/// three periods after twenty that average 1.2 is exactly 2.5 x the average, and whether it
/// passes must not hang on how the grid's nanoseconds round.
class StutterDetector {
 public:
  static constexpr double tolerance_ms = 0.001;
  explicit StutterDetector(double factor = 2.5, int window = 20)
      : factor_{factor}, window_{static_cast<std::size_t>(window < 1 ? 1 : window)} {}
  /// Feeds the next interval (ms); true when it is a stutter against the ones before it.
  bool add(double interval_ms);

 private:
  double factor_;
  std::size_t window_;
  std::deque<double> recent_;
  double sum_ = 0;
};

/// Percentiles of a stream of values in bounded memory. The first exact_limit values are
/// kept and answered exactly (nearest rank, like percentile()); from the next one on, all of
/// them move into a fixed log-scale histogram: buckets of relative width 0.2% for magnitudes
/// from min_magnitude to max_magnitude, each sign (about 44k buckets, 350 KB), so a
/// percentile's error is at most relative_error (0.1%) of its value. Magnitudes under
/// min_magnitude count as 0; above max_magnitude as max_magnitude (min and max stay exact).
class QuantileSketch {
 public:
  static constexpr std::size_t exact_limit = std::size_t{1} << 16;
  static constexpr double relative_error = 0.001;
  static constexpr double min_magnitude = 5e-7;  ///< half a nanosecond, in ms
  static constexpr double max_magnitude = 1e13;  ///< beyond any Nanos, in ms

  void add(double v);  ///< NaN is ignored
  std::int64_t count() const { return count_; }
  bool exact() const { return histogram_.empty(); }
  double min() const { return count_ ? min_ : 0.0; }
  double max() const { return count_ ? max_ : 0.0; }
  /// Nearest-rank percentile p (0..100); 0 for none.
  double percentile(double p) const;
  /// Sum of the n largest values (n clamped to count()).
  double sum_of_largest(std::int64_t n) const;
  /// Memory held (bytes), for tests of the bound.
  std::size_t memory_bytes() const {
    return exact_.capacity() * sizeof(double) + histogram_.capacity() * sizeof(std::int64_t);
  }

 private:
  static std::size_t buckets_per_sign();
  std::size_t bucket_of(double v) const;   ///< index into histogram_
  double value_of(std::size_t bucket) const;
  void to_histogram();

  std::vector<double> exact_;
  /// [0, n): negative values, most negative first; n: zero; (n, 2n]: positive, ascending.
  std::vector<std::int64_t> histogram_;
  std::int64_t count_ = 0;
  double min_ = 0, max_ = 0;
};

/// The Summary of records fed one at a time, in bounded memory (QuantileSketch for the
/// percentiles; the rest are running sums). summarize() is this over a span: the same numbers.
class SummaryBuilder {
 public:
  explicit SummaryBuilder(const StatsOptions& options = {})
      : options_{options}, stutter_{options.stutter_factor, options.stutter_window} {}
  void add(const FrameRecord& r);
  /// Records seen, the warm-up included.
  std::int64_t seen() const { return seen_; }
  Summary result() const;

 private:
  StatsOptions options_;
  std::int64_t seen_ = 0;
  Summary s_;  ///< the counting fields, as they go
  Nanos first_shown_{0}, last_shown_{0}, prev_anim_{0};
  double busy_ms_ = 0, wait_ms_ = 0, interval_sum_ = 0, interval_max_ = 0, anim_max_ = 0, stutter_ms_ = 0;
  double pending_busy_ms_ = 0, pending_wait_ms_ = 0;  ///< the latest frame's, counted when the next starts
  Nanos first_start_{0}, last_start_{0};
  StutterDetector stutter_;
  QuantileSketch intervals_, anim_errors_, lateness_, latency_;
};

/// Presentation time used by the metrics: display where known, else present.
inline Nanos shown_time(const FrameRecord& r) { return r.display ? *r.display : r.present; }

/// Animation error of frame `r` after frame `prev` (docs/log-format.md, PresentMon's
/// MsAnimationError): world time advanced minus shown time advanced.
inline Nanos animation_error(const FrameRecord& prev, const FrameRecord& r) {
  return (r.animation_time - prev.animation_time) - (shown_time(r) - shown_time(prev));
}

/// Percentile p (0..100) of values, nearest-rank on a sorted copy; 0 for none.
double percentile(std::vector<double> values, double p);

/// SummaryBuilder over `records`.
Summary summarize(std::span<const FrameRecord> records, const StatsOptions& options = {});

/// After a load step at frame `from`: how many frames until the interval in force stops
/// changing for `settle` frames in a row (0 if it never changed; -1 if it never settled).
std::int64_t frames_until_stable(std::span<const FrameRecord> records, std::int64_t from, int settle = 30);

/// Frame intervals (shown(i) - shown(i-1)) counted in whole refresh periods: bin k holds the
/// intervals nearest to k periods (k >= 1; bin 0 holds those under half a period). At most
/// max_bins bins: the last one holds every interval of max_bins - 1 periods or more.
std::vector<std::int64_t> refresh_histogram(std::span<const FrameRecord> records, Nanos refresh_period,
                                            std::size_t max_bins = 64);

/// refresh_histogram one frame interval at a time (bins() grows to at most max_bins).
class RefreshHistogram {
 public:
  explicit RefreshHistogram(Nanos refresh_period, std::size_t max_bins = 64)
      : period_{refresh_period}, max_bins_{max_bins} {}
  void add(Nanos interval);  ///< shown(i) - shown(i-1)
  const std::vector<std::int64_t>& bins() const { return bins_; }

 private:
  Nanos period_;
  std::size_t max_bins_;
  std::vector<std::int64_t> bins_;
};

}  // namespace pacer
