#include "pacer/os_sleep_model.hpp"

#include <algorithm>

namespace pacer {

std::optional<WaiterKind> parse_waiter(std::string_view text) {
  if (text == "exact") return WaiterKind::exact;
  if (text == "sleep") return WaiterKind::sleep;
  if (text == "precise") return WaiterKind::precise;
  return std::nullopt;
}

std::string_view to_string(WaiterKind kind) {
  switch (kind) {
    case WaiterKind::exact: return "exact";
    case WaiterKind::sleep: return "sleep";
    case WaiterKind::precise: return "precise";
  }
  return "exact";
}

Nanos SleepModel::sleep_overshoot() {
  // Shape of the measurement in the header: a floor of ~65 us, most wakes within
  // another 60 us, a tail to 170 us, and one in a hundred up to 3 ms late.
  const std::int64_t bucket = rng_.below(100);
  std::int64_t ns = 65'000;
  if (bucket < 90) {
    ns += rng_.below(55'000);
  } else if (bucket < 99) {
    ns += 55'000 + rng_.below(50'000);
  } else {
    ns += 105'000 + rng_.below(2'900'000);
  }
  return Nanos{ns};
}

Nanos SleepModel::wake(Nanos now, Nanos deadline) {
  if (deadline <= now) return now;
  switch (kind_) {
    case WaiterKind::exact:
      return deadline;
    case WaiterKind::sleep:
      return deadline + sleep_overshoot();
    case WaiterKind::precise: {
      Nanos t = now;
      if (deadline - now > spin_margin) t = deadline - spin_margin + sleep_overshoot();
      // Spinning on the clock: the read granularity and the last loop iteration.
      const Nanos spin_error{rng_.below(2'000)};
      return std::max(t, deadline + spin_error);
    }
  }
  return deadline;
}

}  // namespace pacer
