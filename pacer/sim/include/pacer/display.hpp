// pacer/display.hpp - a virtual display: when does a presented frame become visible?
//
// The simulator (pacer/simulator.hpp) presents each frame to a DisplayModel and
// reads back when the frame is shown. Four presentation modes, as Vulkan names them:
//
//   fifo:HZ      shown at the first vblank at or after the present, one frame per
//                vblank; the swapchain has `images` images (3) and acquiring blocks
//                while all of them are queued or on screen.
//   mailbox:HZ   shown at the first vblank at or after the present; a newer present
//                before that vblank replaces the queued frame (it is never shown).
//                Acquire never blocks.
//   immediate    shown when presented (tearing); never blocks. immediate:HZ: the same on
//                a monitor of that refresh, whose vblank grid a pacer may plan on.
//   vrr:MIN-MAX  shown when presented, but no sooner than 1/MAX after the previous
//                frame (the panel's fastest refresh); acquire blocks as with fifo.
//
// Honest clocks (fifo, mailbox, immediate:HZ), as options after the spec:
//   fifo:60@59.94            announced as 60 Hz, really refreshing at 59.94 Hz
//   ,drift=100ppm            the display's clock wanders against the CPU's: its rate is
//                            +100 ppm for 10 s, then -100 ppm for 10 s (a triangle of
//                            phase, 1 ms peak to peak at 100 ppm)
//   ,jitter=50us             reported display times are off by up to +-50 us (uniform,
//                            seeded); the frame is still shown on the true vblank
//   e.g. fifo:60@59.94,drift=100ppm,jitter=50us
//
//   pacer::DisplaySpec spec = pacer::parse_display("fifo:60").value();
//   pacer::DisplayModel display{spec};
//   pacer::Nanos ready = display.acquire(now);     // >= now: when an image is free
//   pacer::Presented p = display.present(frame, ready + render_cost);
//   // p.display: the vblank it latched to (nullopt: replaced, never shown)
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

#include "pacer/display_spec.hpp"
#include "pacer/time.hpp"

namespace pacer {

/// What the display did with one present.
struct Presented {
  std::optional<Nanos> display;  ///< when the frame became visible; nullopt: never shown
  /// mailbox only: an earlier frame this present replaced (that frame is never shown).
  std::optional<std::int64_t> replaced;
};

/// The display's state machine. Times must not go backwards between calls.
class DisplayModel {
 public:
  explicit DisplayModel(DisplaySpec spec) : spec_{spec} {}

  const DisplaySpec& spec() const { return spec_; }

  /// The first (true) vblank at or after t (t itself when it is one).
  Nanos vblank_at_or_after(Nanos t) const;
  /// The true time of vblank k (k = 0 at the phase) and the index of the first at or after t.
  Nanos vblank(std::int64_t k) const;
  std::int64_t vblank_index_at_or_after(Nanos t) const;
  /// The display time reported for a frame shown at the true time t (t plus jitter).
  Nanos reported(Nanos t) const;

  /// Acquire an image at `now`; returns when one is free (>= now). fifo and vrr block
  /// while every image is queued or on screen; the others return now.
  Nanos acquire(Nanos now);

  /// Present frame `frame` at time `at`.
  Presented present(std::int64_t frame, Nanos at);

 private:
  struct Queued {
    std::int64_t frame;
    Nanos shown;
  };
  /// Drops queued entries shown at or before t except the newest one (it is on screen).
  void retire(Nanos t);
  /// The display clock's offset against the CPU clock at t (drift).
  Nanos drift_offset(Nanos t) const;
  /// The first vblank after the one at t (one frame per refresh).
  Nanos vblank_after(Nanos t) const;

  DisplaySpec spec_;
  std::deque<Queued> images_;     ///< fifo/vrr: frames queued or on screen, oldest first
  std::optional<Nanos> last_shown_;
  // mailbox: the frame waiting for the next vblank.
  std::optional<Queued> mailbox_;
};

}  // namespace pacer
