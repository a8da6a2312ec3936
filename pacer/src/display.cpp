#include "pacer/display.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

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

std::optional<DisplaySpec> parse_display(std::string_view text) {
  DisplaySpec spec;
  const auto colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  const std::string_view arg = colon == std::string_view::npos ? std::string_view{} : text.substr(colon + 1);
  if (kind == "none" || kind == "immediate") {
    if (colon != std::string_view::npos) return std::nullopt;
    spec.mode = kind == "none" ? PresentMode::none : PresentMode::immediate;
    return spec;
  }
  if (kind == "fifo" || kind == "mailbox") {
    const auto hz = parse_hz(arg);
    if (!hz) return std::nullopt;
    spec.mode = kind == "fifo" ? PresentMode::fifo : PresentMode::mailbox;
    spec.period = period_of_hz(*hz);
    return spec;
  }
  if (kind == "vrr") {
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
  switch (spec.mode) {
    case PresentMode::none: return "none";
    case PresentMode::immediate: return "immediate";
    case PresentMode::fifo: return "fifo:" + hz_text(spec.period);
    case PresentMode::mailbox: return "mailbox:" + hz_text(spec.period);
    case PresentMode::vrr: return "vrr:" + hz_text(spec.max_period) + "-" + hz_text(spec.period);
  }
  return "none";
}

Nanos DisplayModel::vblank_at_or_after(Nanos t) const {
  if (spec_.period <= Nanos::zero()) return t;
  const Nanos rel = t - spec_.phase;
  std::int64_t k = rel.count() / spec_.period.count();
  if (rel.count() % spec_.period.count() != 0 && rel.count() > 0) ++k;
  return spec_.phase + k * spec_.period;
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
      Nanos shown = spec_.mode == PresentMode::fifo ? vblank_at_or_after(at) : at;
      if (last_shown_) shown = std::max(shown, *last_shown_ + spec_.period);  // one frame per refresh
      last_shown_ = shown;
      images_.push_back({frame, shown});
      out.display = shown;
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
      if (last_shown_ && shown <= *last_shown_) shown = *last_shown_ + spec_.period;
      mailbox_ = Queued{frame, shown};
      out.display = shown;
      return out;
    }
  }
  return out;
}

}  // namespace pacer
