#include "pacer/display.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "pacer/random.hpp"

namespace pacer {

Nanos period_of_hz(double hz) { return Nanos{std::llround(1e9 / hz)}; }

namespace {

std::optional<double> parse_hz(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::string copy{s};
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (end == copy.c_str() || *end != '\0' || !(v >= 1.0) || v > 10'000.0) return std::nullopt;
  return v;
}

std::string hz_text(Nanos period) {
  const double hz = 1e9 / static_cast<double>(period.count());
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", hz);
  return buf;
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
  std::string number{s.substr(0, s.size() - 2)};
  char* end = nullptr;
  const double v = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !(v >= 0) || v * unit > 1e9) return std::nullopt;
  return Nanos{std::llround(v * unit)};
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
  if (kind == "none" || (kind == "immediate" && colon == std::string_view::npos)) {
    if (at != std::string_view::npos || comma != std::string_view::npos) return std::nullopt;
    spec.mode = kind == "none" ? PresentMode::none : PresentMode::immediate;
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
        const std::string number{option.substr(6, option.size() - 9)};
        char* end = nullptr;
        const long long v = std::strtoll(number.c_str(), &end, 10);
        if (number.empty() || *end != '\0' || v < 0 || v > 100'000) return std::nullopt;
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
    case PresentMode::immediate:
      if (spec.period <= Nanos::zero()) return "immediate";
      out = "immediate:" + hz_text(spec.period);
      break;
    case PresentMode::fifo: out = "fifo:" + hz_text(spec.period); break;
    case PresentMode::mailbox: out = "mailbox:" + hz_text(spec.period); break;
    case PresentMode::vrr: return "vrr:" + hz_text(spec.max_period) + "-" + hz_text(spec.period);
  }
  if (spec.actual_period > Nanos::zero() && spec.actual_period != spec.period) out += "@" + hz_text(spec.actual_period);
  if (spec.drift_ppm > 0) out += ",drift=" + std::to_string(spec.drift_ppm) + "ppm";
  if (spec.jitter > Nanos::zero()) out += ",jitter=" + std::to_string(spec.jitter.count()) + "ns";
  return out;
}

Nanos DisplayModel::drift_offset(Nanos t) const {
  // A triangle of phase: the rate is +drift for half the cycle, -drift for the other half.
  if (spec_.drift_ppm <= 0 || spec_.drift_cycle <= Nanos::zero()) return Nanos::zero();
  const std::int64_t cycle = spec_.drift_cycle.count();
  std::int64_t s = t.count() % cycle;
  if (s < 0) s += cycle;
  const std::int64_t rising = s < cycle / 2 ? s : cycle - s;
  return Nanos{rising / 1000 * spec_.drift_ppm / 1000};
}

Nanos DisplayModel::vblank(std::int64_t k) const {
  const Nanos t = spec_.phase + k * spec_.true_period();
  return t + drift_offset(t);
}

std::int64_t DisplayModel::vblank_index_at_or_after(Nanos t) const {
  const std::int64_t p = spec_.true_period().count();
  const std::int64_t rel = (t - spec_.phase).count();
  std::int64_t k = rel / p;
  if (rel % p != 0 && rel > 0) ++k;
  // The drift moves vblanks by far less than a period: a step or two settles it.
  while (vblank(k) < t) ++k;
  while (vblank(k - 1) >= t) --k;
  return k;
}

Nanos DisplayModel::vblank_at_or_after(Nanos t) const {
  if (spec_.period <= Nanos::zero()) return t;
  return vblank(vblank_index_at_or_after(t));
}

Nanos DisplayModel::vblank_after(Nanos t) const {
  if (spec_.period <= Nanos::zero()) return t + spec_.period;
  return vblank(vblank_index_at_or_after(t + Nanos{1}));
}

Nanos DisplayModel::reported(Nanos t) const {
  if (spec_.jitter <= Nanos::zero()) return t;
  // The same draw for the same display time, whatever the order of the calls.
  SplitMix64 rng{spec_.seed ^ static_cast<std::uint64_t>(t.count()) * 0x9e3779b97f4a7c15ULL};
  const std::int64_t j = spec_.jitter.count();
  return t + Nanos{rng.below(2 * j + 1) - j};
}

void DisplayModel::retire(Nanos t) {
  // An image is released once the next frame is on screen.
  while (images_.size() >= 2 && images_[1].shown <= t) images_.pop_front();
}

Nanos DisplayModel::acquire(Nanos now) {
  if (spec_.mode != PresentMode::fifo && spec_.mode != PresentMode::vrr) return now;
  const auto images = static_cast<std::size_t>(std::max(spec_.images, 2));
  Nanos t = now;
  retire(t);
  while (images_.size() >= images) {
    t = std::max(t, images_[1].shown);  // wait until the oldest image leaves the screen
    retire(t);
  }
  return t;
}

Presented DisplayModel::present(std::int64_t frame, Nanos at) {
  Presented out;
  switch (spec_.mode) {
    case PresentMode::none:
      return out;
    case PresentMode::immediate:
      last_shown_ = at;
      out.display = at;
      return out;
    case PresentMode::fifo:
    case PresentMode::vrr: {
      Nanos shown = at;
      if (spec_.mode == PresentMode::fifo) {
        shown = vblank_at_or_after(at);
        if (last_shown_ && shown <= *last_shown_) shown = vblank_after(*last_shown_);  // one frame per refresh
      } else if (last_shown_) {
        shown = std::max(shown, *last_shown_ + spec_.period);  // the panel's fastest refresh
      }
      last_shown_ = shown;
      images_.push_back({frame, shown});
      out.display = reported(shown);
      return out;
    }
    case PresentMode::mailbox: {
      const Nanos vblank = vblank_at_or_after(at);
      if (mailbox_ && mailbox_->shown > at) {
        out.replaced = mailbox_->frame;  // still waiting for its vblank: the newer frame takes its place
      } else if (mailbox_) {
        last_shown_ = mailbox_->shown;
      }
      Nanos shown = vblank;
      if (last_shown_ && shown <= *last_shown_) shown = vblank_after(*last_shown_);
      mailbox_ = Queued{frame, shown};
      out.display = reported(shown);
      return out;
    }
  }
  return out;
}

}  // namespace pacer
