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
      !recent_.empty() && interval_ms > factor_ * (sum_ / static_cast<double>(recent_.size()));
  recent_.push_back(interval_ms);
  sum_ += interval_ms;
  if (recent_.size() > window_) {
    sum_ -= recent_.front();
    recent_.pop_front();
  }
  return stutter;
}

Summary summarize(std::span<const FrameRecord> all, const StatsOptions& options) {
  Summary s;
  const auto skip = static_cast<std::size_t>(std::clamp<std::int64_t>(options.warmup_frames, 0,
                                                                      static_cast<std::int64_t>(all.size())));
  const auto records = all.subspan(skip);
  s.frames = static_cast<std::int64_t>(records.size());
  if (records.empty()) return s;

  std::vector<double> intervals, anim_errors, lateness;
  double busy_ms = 0, wait_ms = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const FrameRecord& r = records[i];
    lateness.push_back(to_ms(r.cpu_start - r.planned_start));
    busy_ms += to_ms(r.render + r.update);
    wait_ms += to_ms(r.pacer_wait);
    s.sim_steps += r.sim_steps;
    s.dropped_ms += to_ms(r.dropped);
    if ((r.events & (event_widen | event_shrink | event_quantize)) != 0) ++s.interval_changes;
    if (i == 0) continue;
    const FrameRecord& p = records[i - 1];
    intervals.push_back(to_ms(shown_time(r) - shown_time(p)));
    anim_errors.push_back(std::abs(to_ms(animation_error(p, r))));
  }
  s.duration_ms = to_ms(shown_time(records.back()) - shown_time(records.front()));
  if (s.duration_ms > 0) {
    s.average_fps = static_cast<double>(intervals.size()) * 1000.0 / s.duration_ms;
    s.busy_share = busy_ms / s.duration_ms;
    s.wait_share = wait_ms / s.duration_ms;
    s.interval_changes_per_min = static_cast<double>(s.interval_changes) * 60'000.0 / s.duration_ms;
  }
  if (!intervals.empty()) {
    s.interval_mean_ms = std::accumulate(intervals.begin(), intervals.end(), 0.0) / static_cast<double>(intervals.size());
    s.interval_p50_ms = percentile(intervals, 50);
    s.interval_p99_ms = percentile(intervals, 99);
    s.interval_max_ms = *std::max_element(intervals.begin(), intervals.end());
    s.anim_error_p50_ms = percentile(anim_errors, 50);
    s.anim_error_p99_ms = percentile(anim_errors, 99);
    s.anim_error_max_ms = *std::max_element(anim_errors.begin(), anim_errors.end());

    // CapFrameX: a frame time over 2.5 x the moving average of the preceding frames is a stutter.
    double stutter_ms = 0;
    StutterDetector stutter{options.stutter_factor, options.stutter_window};
    for (const double interval : intervals) {
      if (!stutter.add(interval)) continue;
      ++s.stutters;
      stutter_ms += interval;
    }
    if (s.duration_ms > 0) s.stutter_time_pct = 100.0 * stutter_ms / s.duration_ms;

    // P1 / P0.1: fps at the 99th / 99.9th percentile frame time. 1% / 0.1% low: the
    // frames over time of the slowest 1% / 0.1% of frames (CapFrameX's "low" averages).
    const double p99 = percentile(intervals, 99), p999 = percentile(intervals, 99.9);
    s.p1_fps = p99 > 0 ? 1000.0 / p99 : 0;
    s.p01_fps = p999 > 0 ? 1000.0 / p999 : 0;
    std::vector<double> sorted = intervals;
    std::sort(sorted.begin(), sorted.end(), std::greater<>{});
    auto low = [&](double share) {
      const auto n = std::max<std::size_t>(1, static_cast<std::size_t>(static_cast<double>(sorted.size()) * share));
      const double sum = std::accumulate(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(n), 0.0);
      return sum > 0 ? static_cast<double>(n) * 1000.0 / sum : 0.0;
    };
    s.low1_fps = low(0.01);
    s.low01_fps = low(0.001);
  }
  s.lateness_p50_ms = percentile(lateness, 50);
  s.lateness_p99_ms = percentile(lateness, 99);
  return s;
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

std::vector<std::int64_t> refresh_histogram(std::span<const FrameRecord> records, Nanos refresh_period) {
  std::vector<std::int64_t> bins;
  if (refresh_period <= Nanos::zero()) return bins;
  for (std::size_t i = 1; i < records.size(); ++i) {
    const Nanos d = shown_time(records[i]) - shown_time(records[i - 1]);
    const auto k = static_cast<std::size_t>(std::max<std::int64_t>(0, (d + refresh_period / 2) / refresh_period));
    if (bins.size() <= k) bins.resize(k + 1, 0);
    ++bins[k];
  }
  return bins;
}

}  // namespace pacer
