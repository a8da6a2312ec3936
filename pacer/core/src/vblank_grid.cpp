#include "pacer/vblank_grid.hpp"

#include <algorithm>
#include <limits>

namespace pacer {

namespace {

// 128-bit products: a time 104 days from the anchor times 1024 passes 2^63 (a host that
// reported such a display time hung at_or_after's search, its k computed from a wrapped
// product). The results fit in 64 bits for any time within the Nanos range.
__extension__ typedef __int128 Wide;

/// floor(a / b) for b > 0, clamped to the 64-bit range.
std::int64_t floor_div(Wide a, Wide b) {
  Wide q = a / b;
  if (a % b != 0 && a < 0) --q;
  const Wide lo = std::numeric_limits<std::int64_t>::min() / 2, hi = std::numeric_limits<std::int64_t>::max() / 2;
  return static_cast<std::int64_t>(std::clamp(q, lo, hi));
}

}  // namespace

VblankGrid::VblankGrid(Nanos period, Nanos phase)
    : anchor_{phase}, period_fp_{period.count() * one}, nominal_fp_{period.count() * one} {}

Nanos VblankGrid::point(std::int64_t k) const { return anchor_ + Nanos{floor_div(Wide{k} * period_fp_, one)}; }

Nanos VblankGrid::at_or_after(Nanos t) const {
  if (period_fp_ <= 0) return t;
  std::int64_t k = floor_div(Wide{(t - anchor_).count()} * one, period_fp_);
  while (point(k) < t) ++k;
  while (point(k - 1) >= t) --k;
  return point(k);
}

Nanos VblankGrid::nearest(Nanos t) const {
  if (period_fp_ <= 0) return t;
  const std::int64_t k = floor_div(Wide{(t - anchor_).count()} * one + period_fp_ / 2, period_fp_);
  return point(k);
}

void VblankGrid::observe(Nanos t, bool lock) {
  if (period_fp_ <= 0) return;
  if (observations_++ == 0) {
    anchor_ = t;  // the first reported vblank anchors the grid
    return;
  }
  if (!lock) return;
  const std::int64_t k = floor_div(Wide{(t - anchor_).count()} * one + period_fp_ / 2, period_fp_);
  if (k <= 0) return;  // not a later vblank (out of order, or jitter around the anchor)
  const Nanos predicted = point(k);
  const Nanos e = t - predicted;
  const Nanos quarter{(period_fp_ >> frac_bits) / 4};
  if (e > quarter || e < -quarter) {
    // Far off the grid: a glitch, or a grid that no longer holds (a mode change): after
    // three in a row, start again from here.
    if (++outliers_ >= 3) {
      anchor_ = t;
      outliers_ = 0;
    }
    return;
  }
  outliers_ = 0;
  anchor_ = predicted + e / 8;
  period_fp_ += e.count() * one / 64 / k;
  period_fp_ = std::clamp(period_fp_, nominal_fp_ - nominal_fp_ / 100, nominal_fp_ + nominal_fp_ / 100);
  const Nanos size = e < Nanos::zero() ? -e : e;
  residual_ += (size - residual_) / 16;
}

}  // namespace pacer
