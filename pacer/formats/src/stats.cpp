#include "pacer/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pacer {

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  // Nearest rank: the smallest value with at least p% of the values at or below it.
  const double rank = std::ceil(p / 100.0 * static_cast<double>(values.size()));
  const auto index = static_cast<std::size_t>(std::clamp(rank, 1.0, static_cast<double>(values.size()))) - 1;
  return values[index];
}

bool StutterDetector::add(double interval_ms) {
  const bool stutter =
      !recent_.empty() && interval_ms > factor_ * (sum_ / static_cast<double>(recent_.size())) + tolerance_ms;
  recent_.push_back(interval_ms);
  sum_ += interval_ms;
  if (recent_.size() > window_) {
    sum_ -= recent_.front();
    recent_.pop_front();
  }
  return stutter;
}

namespace {
const double gamma_ = (1 + QuantileSketch::relative_error) / (1 - QuantileSketch::relative_error);
const double log_gamma = std::log(gamma_);
/// Bucket i (>= 1) of a sign holds magnitudes in (min_magnitude * gamma^(i-1), min_magnitude * gamma^i].
}  // namespace

std::size_t QuantileSketch::buckets_per_sign() {
  static const auto n = static_cast<std::size_t>(std::ceil(std::log(max_magnitude / min_magnitude) / log_gamma)) + 1;
  return n;
}

std::size_t QuantileSketch::bucket_of(double v) const {
  const std::size_t n = buckets_per_sign();
  const double m = std::abs(v);
  if (!(m >= min_magnitude)) return n;  // zero
  const double i = std::ceil(std::log(std::min(m, max_magnitude) / min_magnitude) / log_gamma);
  const std::size_t k = std::clamp<std::size_t>(static_cast<std::size_t>(std::max(1.0, i)), 1, n);
  return v < 0 ? n - k : n + k;
}

double QuantileSketch::value_of(std::size_t bucket) const {
  const std::size_t n = buckets_per_sign();
  if (bucket == n) return 0.0;
  const std::size_t k = bucket > n ? bucket - n : n - bucket;
  // The middle (in relative terms) of (g^(k-1), g^k]: within relative_error of every value in it.
  const double m = min_magnitude * std::pow(gamma_, static_cast<double>(k)) * 2 / (gamma_ + 1);
  return std::clamp(bucket > n ? m : -m, min_, max_);
}

void QuantileSketch::to_histogram() {
  histogram_.assign(2 * buckets_per_sign() + 1, 0);
  for (const double v : exact_) ++histogram_[bucket_of(v)];
  std::vector<double>{}.swap(exact_);
}

void QuantileSketch::add(double v) {
  if (std::isnan(v)) return;
  if (count_ == 0 || v < min_) min_ = v;
  if (count_ == 0 || v > max_) max_ = v;
  ++count_;
  if (histogram_.empty()) {
    if (exact_.size() < exact_limit) {
      exact_.push_back(v);
      return;
    }
    to_histogram();
  }
  ++histogram_[bucket_of(v)];
}

double QuantileSketch::percentile(double p) const {
  if (count_ == 0) return 0.0;
  if (histogram_.empty()) return pacer::percentile(exact_, p);
  const double rank = std::ceil(p / 100.0 * static_cast<double>(count_));
  const auto want = static_cast<std::int64_t>(std::clamp(rank, 1.0, static_cast<double>(count_)));
  if (want == 1) return min_;  // the ends are kept exactly
  if (want == count_) return max_;
  std::int64_t seen = 0;
  for (std::size_t b = 0; b < histogram_.size(); ++b) {
    seen += histogram_[b];
    if (seen >= want) return value_of(b);
  }
  return max_;
}

double QuantileSketch::sum_of_largest(std::int64_t n) const {
  n = std::clamp<std::int64_t>(n, 0, count_);
  if (n == 0) return 0.0;
  if (histogram_.empty()) {
    std::vector<double> sorted = exact_;
    std::sort(sorted.begin(), sorted.end(), std::greater<>{});
    return std::accumulate(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(n), 0.0);
  }
  double sum = 0;
  for (std::size_t b = histogram_.size(); b-- > 0 && n > 0;) {
    const std::int64_t take = std::min(n, histogram_[b]);
    sum += static_cast<double>(take) * value_of(b);
    n -= take;
  }
  return sum;
}

void SummaryBuilder::add(const FrameRecord& r) {
  if (seen_++ < options_.warmup_frames) return;
  const bool first = s_.frames++ == 0;
  lateness_.add(to_ms(r.cpu_start - r.planned_start));
  latency_.add(to_ms(shown_time(r) - r.cpu_start));
  // A frame's work and waits lie between its start and the next frame's: counted once the
  // next frame has started, over the loop's time from the first start to the last.
  if (first) first_start_ = r.cpu_start;
  else busy_ms_ += pending_busy_ms_, wait_ms_ += pending_wait_ms_;
  last_start_ = r.cpu_start;
  pending_busy_ms_ = to_ms(r.render + r.update);
  pending_wait_ms_ = to_ms(r.pacer_wait);
  s_.sim_steps += r.sim_steps;
  s_.dropped_ms += to_ms(r.dropped);
  if ((r.events & (event_widen | event_shrink | event_quantize)) != 0) ++s_.interval_changes;
  const Nanos shown = shown_time(r);
  if (first) {
    first_shown_ = last_shown_ = shown;
    prev_anim_ = r.animation_time;
    return;
  }
  const double interval = to_ms(shown - last_shown_);
  const double anim_error = std::abs(to_ms((r.animation_time - prev_anim_) - (shown - last_shown_)));
  last_shown_ = shown;
  prev_anim_ = r.animation_time;
  interval_sum_ += interval;
  if (intervals_.count() == 0 || interval > interval_max_) interval_max_ = interval;
  if (anim_errors_.count() == 0 || anim_error > anim_max_) anim_max_ = anim_error;
  intervals_.add(interval);
  anim_errors_.add(anim_error);
  // CapFrameX: a frame time over 2.5 x the moving average of the preceding frames is a stutter.
  if (stutter_.add(interval)) {
    ++s_.stutters;
    stutter_ms_ += interval;
  }
}

Summary SummaryBuilder::result() const {
  Summary s = s_;
  if (s.frames == 0) return s;
  s.duration_ms = to_ms(last_shown_ - first_shown_);
  const auto n = intervals_.count();
  if (s.duration_ms > 0) {
    s.average_fps = static_cast<double>(n) * 1000.0 / s.duration_ms;
    s.interval_changes_per_min = static_cast<double>(s.interval_changes) * 60'000.0 / s.duration_ms;
  }
  // Over the loop's own time, not the display's: work over the span of display times put 3
  // frames' work over 2 intervals (a 3-frame run 50% busy and 59% waiting) and a loop
  // blocked on a FIFO queue at 100.2% busy.
  if (const double span = to_ms(last_start_ - first_start_); span > 0) {
    s.busy_share = busy_ms_ / span;
    s.wait_share = wait_ms_ / span;
  }
  if (n > 0) {
    s.interval_mean_ms = interval_sum_ / static_cast<double>(n);
    s.interval_p50_ms = intervals_.percentile(50);
    s.interval_p99_ms = intervals_.percentile(99);
    s.interval_max_ms = interval_max_;
    s.anim_error_p50_ms = anim_errors_.percentile(50);
    s.anim_error_p99_ms = anim_errors_.percentile(99);
    s.anim_error_max_ms = anim_max_;
    if (s.duration_ms > 0) s.stutter_time_pct = 100.0 * stutter_ms_ / s.duration_ms;

    // P1 / P0.1: fps at the 99th / 99.9th percentile frame time. 1% / 0.1% low: the
    // frames over time of the slowest 1% / 0.1% of frames (CapFrameX's "low" averages).
    const double p99 = s.interval_p99_ms, p999 = intervals_.percentile(99.9);
    s.p1_fps = p99 > 0 ? 1000.0 / p99 : 0;
    s.p01_fps = p999 > 0 ? 1000.0 / p999 : 0;
    auto low = [&](double share) {
      const auto k = std::max<std::int64_t>(1, static_cast<std::int64_t>(static_cast<double>(n) * share));
      const double sum = intervals_.sum_of_largest(k);
      return sum > 0 ? static_cast<double>(k) * 1000.0 / sum : 0.0;
    };
    s.low1_fps = low(0.01);
    s.low01_fps = low(0.001);
  }
  s.lateness_p50_ms = lateness_.percentile(50);
  s.lateness_p99_ms = lateness_.percentile(99);
  s.latency_p50_ms = latency_.percentile(50);
  return s;
}

Summary summarize(std::span<const FrameRecord> records, const StatsOptions& options) {
  SummaryBuilder builder{options};
  for (const FrameRecord& r : records) builder.add(r);
  return builder.result();
}

std::int64_t frames_until_stable(std::span<const FrameRecord> records, std::int64_t from, int settle) {
  const auto start = static_cast<std::size_t>(std::clamp<std::int64_t>(from, 0, static_cast<std::int64_t>(records.size())));
  std::size_t last_change = start;
  bool changed = false;
  for (std::size_t i = start + 1; i < records.size(); ++i) {
    if (records[i].interval != records[i - 1].interval) {
      last_change = i;
      changed = true;
    } else if (static_cast<int>(i - last_change) >= settle) {
      return changed ? static_cast<std::int64_t>(last_change - start) : 0;
    }
  }
  return changed ? -1 : 0;
}

void RefreshHistogram::add(Nanos d) {
  if (period_ <= Nanos::zero() || max_bins_ == 0) return;
  const auto last = static_cast<std::int64_t>(max_bins_ - 1);
  // d / period + (rounding), without overflowing d + period / 2.
  const std::int64_t whole = d / period_, rest = (d % period_).count();
  const std::int64_t nearest = whole + (rest >= (period_ - period_ / 2).count() ? 1 : 0);
  const auto k = static_cast<std::size_t>(std::clamp<std::int64_t>(nearest, 0, last));
  if (bins_.size() <= k) bins_.resize(k + 1, 0);
  ++bins_[k];
}

std::vector<std::int64_t> refresh_histogram(std::span<const FrameRecord> records, Nanos refresh_period,
                                            std::size_t max_bins) {
  RefreshHistogram h{refresh_period, max_bins};
  for (std::size_t i = 1; i < records.size(); ++i) h.add(shown_time(records[i]) - shown_time(records[i - 1]));
  return h.bins();
}

}  // namespace pacer
