// bench/miss_reasons.hpp - what a run's log says about why it misses a criterion
// (bench/compare's "Why each missing row misses" lists).
//
//   const pacer::Summary summary = pacer::summarize(run.records, stats);
//   auto facts = fpbench::facts_of(run.records, stats.warmup_frames, summary);
//   // facts.top_late of facts.top frames at the p99 |animation error| were shown later
//   // than the world they show; facts.stutters are the frames ending a stutter;
//   auto own = fpbench::unmatched(facts.stutters, baseline_facts.stutters);
//
// Computed on the frames after the warm-up, with the definitions of summarize()
// (pacer/stats.hpp): the animation error of a frame is against the frame before it; a
// stutter is CapFrameX's rule on the shown intervals.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "pacer/stats.hpp"

namespace fpbench {

struct RunFacts {
  /// Frames whose |animation error| is at least the run's p99 (the ones that set it) ...
  std::int64_t top = 0;
  /// ... of which the world advanced less than the display: shown later than the world they
  /// show (a late frame, a missed vblank) ...
  std::int64_t top_late = 0;
  double top_late_median_ms = 0;
  /// ... or more: the world catching up lag, or the frame after one shown late.
  std::int64_t top_ahead = 0;
  double top_ahead_median_ms = 0;
  /// Per frame, on average: CPU work (render + updates), deliberate waits (held presents and
  /// planned starts), and the shown interval.
  double busy_ms = 0, wait_ms = 0, interval_ms = 0;
  /// The frames (record index) whose shown interval is a stutter, each with that interval,
  /// the frame's own render time, and what the gap holds besides that render and the updates
  /// of the frame before (waits, held presents, the display's own delay): about the gap, the
  /// render was it; much less, a wait was.
  std::vector<std::int64_t> stutters;
  std::vector<double> stutter_gap_ms, stutter_render_ms, stutter_rest_ms;
  /// Frames that dropped simulation time, and the largest drop.
  std::int64_t drop_frames = 0;
  double drop_max_ms = 0;
};

inline double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

/// The facts of one run's records, skipping `warmup` frames; `summary` is summarize() of
/// the same records with the same warm-up (its p99 |animation error| and mean interval come
/// from it).
inline RunFacts facts_of(std::span<const pacer::FrameRecord> records, std::int64_t warmup, const pacer::Summary& summary) {
  RunFacts f;
  const auto first = static_cast<std::size_t>(std::max<std::int64_t>(warmup, 0));
  if (records.size() <= first + 1 || summary.frames == 0) return f;
  const double anim_p99_ms = summary.anim_error_p99_ms;
  std::vector<double> late, ahead;
  pacer::StutterDetector stutter;
  for (std::size_t i = first; i < records.size(); ++i) {
    const pacer::FrameRecord& r = records[i];
    if (r.dropped > pacer::Nanos::zero()) {
      ++f.drop_frames;
      f.drop_max_ms = std::max(f.drop_max_ms, pacer::to_ms(r.dropped));
    }
    if (i == first) continue;
    const double err = pacer::to_ms(pacer::animation_error(records[i - 1], r));
    // At the p99 or over, with the criteria's slack for rounding (1e-9 ms).
    if (std::abs(err) + 1e-9 >= anim_p99_ms && anim_p99_ms > 0) {
      ++f.top;
      (err < 0 ? late : ahead).push_back(std::abs(err));
    }
    const double gap = pacer::to_ms(pacer::shown_time(r) - pacer::shown_time(records[i - 1]));
    if (stutter.add(gap)) {
      f.stutters.push_back(static_cast<std::int64_t>(i));
      f.stutter_gap_ms.push_back(gap);
      f.stutter_render_ms.push_back(pacer::to_ms(r.render));
      f.stutter_rest_ms.push_back(gap - pacer::to_ms(r.render + records[i - 1].update));
    }
  }
  f.top_late = static_cast<std::int64_t>(late.size());
  f.top_ahead = static_cast<std::int64_t>(ahead.size());
  f.top_late_median_ms = median_of(late);
  f.top_ahead_median_ms = median_of(ahead);
  double busy = 0, wait = 0;  // the mean per frame, over the frames after the warm-up
  for (std::size_t i = first; i < records.size(); ++i) {
    busy += pacer::to_ms(records[i].render + records[i].update);
    wait += pacer::to_ms(records[i].pacer_wait);
  }
  f.busy_ms = busy / static_cast<double>(records.size() - first);
  f.wait_ms = wait / static_cast<double>(records.size() - first);
  f.interval_ms = summary.interval_mean_ms;
  return f;
}

/// The positions in `mine` (of f.stutters) left when each frame of `theirs` pairs with at
/// most one of `mine` within `within` frames: the stutters only this run has. One to one:
/// two stutters in a row against one of theirs leave one unmatched. In frame order each
/// takes the earliest partner free, which pairs as many as can be; where pairing the
/// stutters at the same frame first pairs as many, that pairing is the one named (in order,
/// 348 took accumulator's 349 and 349 its 350, naming 350 where 348 had no partner).
inline std::vector<std::size_t> unmatched(const std::vector<std::int64_t>& mine, const std::vector<std::int64_t>& theirs,
                                          std::int64_t within = 3) {
  const auto pair_up = [&](bool same_frame_first) {
    std::vector<bool> used(theirs.size(), false), paired(mine.size(), false);
    for (int pass = same_frame_first ? 0 : 1; pass < 2; ++pass)
      for (std::size_t k = 0; k < mine.size(); ++k)
        for (std::size_t t = 0; t < theirs.size() && !paired[k]; ++t) {
          const bool fits = pass == 0 ? theirs[t] == mine[k]
                                      : theirs[t] >= mine[k] - within && theirs[t] <= mine[k] + within;
          if (!used[t] && fits) used[t] = paired[k] = true;
        }
    std::vector<std::size_t> out;
    for (std::size_t k = 0; k < mine.size(); ++k)
      if (!paired[k]) out.push_back(k);
    return out;
  };
  std::vector<std::size_t> most = pair_up(false), same_first = pair_up(true);
  return same_first.size() <= most.size() ? same_first : most;
}

}  // namespace fpbench
