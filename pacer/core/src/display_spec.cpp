#include "pacer/display_spec.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>
#include <system_error>

#include "pacer/decimal.hpp"

namespace pacer {

Nanos period_of_hz(double hz) {
  // At least 1 mHz (a period under 1000 s): llround of a larger quotient overflows.
  if (!std::isfinite(hz) || hz < 1e-3) {
    throw std::invalid_argument("period_of_hz: " + format_general(hz, 6) +
                                " Hz is not a refresh rate (a monitor that reports none: leave the period 0)");
  }
  return Nanos{std::llround(1e9 / hz)};
}

namespace {

std::optional<double> parse_hz(std::string_view s) {
  const auto v = parse_decimal(s);
  if (!v || !(*v >= 1.0) || *v > 10'000.0) return std::nullopt;
  return v;
}

std::string hz_text(Nanos period) {
  return format_general(1e9 / static_cast<double>(period.count()), 6);
}

}  // namespace

namespace {

/// "50us", "0.05ms", "50000ns" -> nanoseconds (>= 0); nullopt otherwise.
std::optional<Nanos> parse_duration(std::string_view s) {
  double unit = 0;
  if (s.ends_with("us")) unit = 1e3;
  else if (s.ends_with("ms")) unit = 1e6;
  else if (s.ends_with("ns")) unit = 1;
  else return std::nullopt;
  const auto v = parse_decimal(s.substr(0, s.size() - 2));
  if (!v || !(*v >= 0) || *v * unit > 1e9) return std::nullopt;
  return Nanos{std::llround(*v * unit)};
}

}  // namespace

std::optional<DisplaySpec> parse_display(std::string_view text) {
  DisplaySpec spec;
  // Options after the first comma: drift=Nppm, jitter=DURATION.
  const auto comma = text.find(',');
  std::string_view options = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
  text = text.substr(0, comma);
  // An actual refresh after '@'.
  const auto at = text.find('@');
  std::optional<double> actual_hz;
  if (at != std::string_view::npos) {
    actual_hz = parse_hz(text.substr(at + 1));
    if (!actual_hz) return std::nullopt;
    text = text.substr(0, at);
  }
  const auto colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  const std::string_view arg = colon == std::string_view::npos ? std::string_view{} : text.substr(colon + 1);
  if (kind == "none" || kind == "offscreen" || (kind == "immediate" && colon == std::string_view::npos)) {
    if (colon != std::string_view::npos || at != std::string_view::npos || comma != std::string_view::npos)
      return std::nullopt;
    spec.mode = kind == "none" ? PresentMode::none : kind == "offscreen" ? PresentMode::offscreen : PresentMode::immediate;
    return spec;
  }
  // A FIFO or mailbox whose refresh is not known (the engine's, when the monitor reports no
  // rate, as under Xvfb): no vblank grid, so no '@', drift or jitter either.
  if ((kind == "fifo" || kind == "mailbox") && colon == std::string_view::npos) {
    if (at != std::string_view::npos || comma != std::string_view::npos) return std::nullopt;
    spec.mode = kind == "fifo" ? PresentMode::fifo : PresentMode::mailbox;
    return spec;
  }
  if (kind == "fifo" || kind == "mailbox" || kind == "immediate") {
    const auto hz = parse_hz(arg);
    if (!hz) return std::nullopt;
    spec.mode = kind == "fifo" ? PresentMode::fifo : kind == "mailbox" ? PresentMode::mailbox : PresentMode::immediate;
    spec.period = period_of_hz(*hz);
    if (actual_hz) spec.actual_period = period_of_hz(*actual_hz);
    while (!options.empty()) {
      const auto next = options.find(',');
      const std::string_view option = options.substr(0, next);
      options = next == std::string_view::npos ? std::string_view{} : options.substr(next + 1);
      if (option.starts_with("jitter=")) {
        const auto j = parse_duration(option.substr(7));
        if (!j) return std::nullopt;
        spec.jitter = *j;
      } else if (option.starts_with("drift=") && option.ends_with("ppm")) {
        std::string_view number = option.substr(6, option.size() - 9);
        if (number.starts_with('+')) number.remove_prefix(1);  // a sign, as the other numbers take
        long long v = -1;
        const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
        if (ec != std::errc{} || end != number.data() + number.size() || v < 0 || v > 100'000) return std::nullopt;
        spec.drift_ppm = v;
      } else {
        return std::nullopt;
      }
    }
    return spec;
  }
  if (kind == "vrr") {
    if (at != std::string_view::npos || comma != std::string_view::npos) return std::nullopt;
    const auto dash = arg.find('-');
    if (dash == std::string_view::npos) return std::nullopt;
    const auto lo = parse_hz(arg.substr(0, dash));
    const auto hi = parse_hz(arg.substr(dash + 1));
    if (!lo || !hi || *lo > *hi) return std::nullopt;
    spec.mode = PresentMode::vrr;
    spec.period = period_of_hz(*hi);
    spec.max_period = period_of_hz(*lo);
    return spec;
  }
  return std::nullopt;
}

std::string to_string(const DisplaySpec& spec) {
  std::string out;
  switch (spec.mode) {
    case PresentMode::none: return "none";
    case PresentMode::offscreen: return "offscreen";
    case PresentMode::immediate:
      if (spec.period <= Nanos::zero()) return "immediate";
      out = "immediate:" + hz_text(spec.period);
      break;
    case PresentMode::fifo:
      if (spec.period <= Nanos::zero()) return "fifo";  // no rate known (was written "fifo:inf")
      out = "fifo:" + hz_text(spec.period);
      break;
    case PresentMode::mailbox:
      if (spec.period <= Nanos::zero()) return "mailbox";
      out = "mailbox:" + hz_text(spec.period);
      break;
    case PresentMode::vrr: return "vrr:" + hz_text(spec.max_period) + "-" + hz_text(spec.period);
  }
  if (spec.actual_period > Nanos::zero() && spec.actual_period != spec.period) {
    out += '@';  // appended apart: g++ 12 -O2 warns (-Wrestrict, a false positive) on "@" + string
    out += hz_text(spec.actual_period);
  }
  if (spec.drift_ppm > 0) out += ",drift=" + std::to_string(spec.drift_ppm) + "ppm";
  if (spec.jitter > Nanos::zero()) out += ",jitter=" + std::to_string(spec.jitter.count()) + "ns";
  return out;
}

}  // namespace pacer
