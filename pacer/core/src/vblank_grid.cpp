#include "pacer/vblank_grid.hpp"

#include <algorithm>

namespace pacer {

namespace {

/// floor(a / b) for b > 0.
std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

}  // namespace

VblankGrid::VblankGrid(Nanos period, Nanos phase)
    : anchor_{phase}, period_fp_{period.count() * one}, nominal_fp_{period.count() * one} {}

Nanos VblankGrid::point(std::int64_t k) const { return anchor_ + Nanos{floor_div(k * period_fp_, one)}; }

Nanos VblankGrid::at_or_after(Nanos t) const {
  if (period_fp_ <= 0) return t;
  std::int64_t k = floor_div((t - anchor_).count() * one, period_fp_);
  while (point(k) < t) ++k;
  while (point(k - 1) >= t) --k;
  return point(k);
}

Nanos VblankGrid::nearest(Nanos t) const {
  if (period_fp_ <= 0) return t;
  const std::int64_t k = floor_div((t - anchor_).count() * one + period_fp_ / 2, period_fp_);
  return point(k);
}

void VblankGrid::observe(Nanos t, bool lock) {
  if (period_fp_ <= 0) return;
  if (observations_++ == 0) {
    anchor_ = t;  // the first reported vblank anchors the grid
    return;
  }
  if (!lock) return;
  const std::int64_t k = floor_div((t - anchor_).count() * one + period_fp_ / 2, period_fp_);
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
