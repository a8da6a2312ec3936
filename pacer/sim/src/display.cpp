#include "pacer/display.hpp"

#include <algorithm>

#include "pacer/random.hpp"

namespace pacer {

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
    case PresentMode::offscreen:
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
