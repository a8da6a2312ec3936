// Small helpers for the rings of recent values the adaptive policies keep (internal).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "pacer/time.hpp"

namespace pacer::detail {

/// Appends to a ring of at most `capacity` values; `next` is where the next one goes.
inline void push_ring(std::vector<Nanos>& ring, std::size_t& next, std::size_t capacity, Nanos value) {
  if (ring.size() < capacity) {
    ring.push_back(value);
  } else {
    ring[next] = value;
  }
  next = (next + 1) % capacity;
}

/// The newest `n` values of a ring that push_ring fills (all of them when it holds fewer),
/// newest first, into `out` (cleared first; reused, so no allocation once it has grown).
inline void newest_of_ring(const std::vector<Nanos>& ring, std::size_t next, std::size_t n, std::vector<Nanos>& out) {
  out.clear();
  const std::size_t size = ring.size();
  n = std::min(n, size);
  for (std::size_t i = 1; i <= n; ++i) out.push_back(ring[(next + size - i) % size]);
}

/// The second-largest value of `values` once it holds at least `min_count` of them, else
/// the largest (0 for none): a recent worst case that one outlier does not set.
inline Nanos second_largest(const std::vector<Nanos>& values, std::size_t min_count) {
  Nanos worst{0}, second{0};
  for (const Nanos v : values) {
    if (v > worst) {
      second = worst;
      worst = v;
    } else if (v > second) {
      second = v;
    }
  }
  return values.size() >= min_count ? second : worst;
}

/// The median of `values` (the upper one of an even count), reordering them; 0 for none.
inline Nanos median_in_place(std::vector<Nanos>& values) {
  if (values.empty()) return Nanos::zero();
  const auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  return *mid;
}

/// The index of the pct-th percentile (nearest rank, clamped to [1, n]) among n > 0 sorted
/// values.
inline std::size_t percentile_index(double pct, std::size_t n) {
  const double rank = std::ceil(pct / 100.0 * static_cast<double>(n));
  return static_cast<std::size_t>(std::clamp(rank, 1.0, static_cast<double>(n))) - 1;
}

}  // namespace pacer::detail
