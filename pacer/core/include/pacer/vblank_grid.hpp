// pacer/vblank_grid.hpp - where the display's vblanks fall, locked to what it reports.
//
// A display announced as 60 Hz may refresh at 59.94 or 60.02 Hz, its clock drifts by
// parts per million against the CPU's, and the times it reports jitter by tens of
// microseconds. VblankGrid starts from the announced period and the first reported
// vblank, then locks phase and period to every vblank reported after it, as a
// second-order phase-locked loop does: each residual (reported - predicted) moves the
// phase by 1/8 of it and the period by 1/64 of it per period elapsed. The period is kept
// in 1/1024 ns, so an error of half a nanosecond per period does not add up to a missed
// vblank over a long run. With an exact display every residual is 0 and the grid is
// the announced one.
//
//   using namespace std::chrono_literals;  // the time literals below (ms, ns)
//   pacer::VblankGrid grid{16'666'667ns, 0ns};     // 60 Hz announced, a vblank at 0
//   grid.observe(shown);                            // each display time a present-wait reports
//   pacer::Nanos next = grid.at_or_after(now);      // the first vblank at or after now
//   pacer::Nanos same = grid.nearest(shown + 2 * grid.period());   // two vblanks on
#pragma once

#include <cstdint>

#include "pacer/time.hpp"

namespace pacer {

class VblankGrid {
 public:
  VblankGrid() = default;
  /// A grid of `period` through `phase`; the first observe() re-anchors the phase.
  VblankGrid(Nanos period, Nanos phase);

  /// The period, rounded to whole nanoseconds (0: no grid).
  Nanos period() const { return Nanos{(period_fp_ + half) >> frac_bits}; }
  /// A vblank (the latest observation, or the phase given).
  Nanos anchor() const { return anchor_; }
  /// The first vblank at or after t.
  Nanos at_or_after(Nanos t) const;
  /// The vblank nearest to t (grid arithmetic: a vblank plus whole periods).
  Nanos nearest(Nanos t) const;
  /// A reported vblank: the first anchors the grid; later ones lock phase and period
  /// (lock = false: anchor once, then keep the grid as it is, for displays without vblanks).
  void observe(Nanos t, bool lock = true);
  /// Mean |residual| of recent observations: how far reported vblanks fall from the grid.
  Nanos residual() const { return residual_; }
  std::int64_t observations() const { return observations_; }

 private:
  static constexpr int frac_bits = 10;
  static constexpr std::int64_t one = std::int64_t{1} << frac_bits;
  static constexpr std::int64_t half = one / 2;
  /// Vblank k after the anchor (k may be negative).
  Nanos point(std::int64_t k) const;

  Nanos anchor_{0};
  std::int64_t period_fp_ = 0;   ///< period in 1/1024 ns
  std::int64_t nominal_fp_ = 0;  ///< the announced period: the lock stays within 1% of it
  std::int64_t observations_ = 0;
  int outliers_ = 0;
  Nanos residual_{0};
};

}  // namespace pacer
