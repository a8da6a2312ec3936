// pacer/display_spec.hpp - the display a policy paces, as the policies need to know it.
//
// A DisplaySpec names the presentation mode as Vulkan does (fifo, mailbox, immediate,
// and vrr for a variable-refresh panel), the refresh period, and for the simulator the
// display's honest clock (actual refresh, drift, jitter). pacer::fit_to_display
// (pacer/policies.hpp) turns it into a policy configuration; the simulator's virtual
// display (pacer/display.hpp, in pacer::sim) shows frames by it.
//
//   pacer::DisplaySpec spec = pacer::parse_display("fifo:60").value();
//   spec.images = 3;                                    // the swapchain's image count
//   pacer::PolicyConfig cfg;  pacer::fit_to_display(cfg, spec);  // pacer/policies.hpp
//   std::string text = pacer::to_string(spec);          // "fifo:60"
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pacer/time.hpp"

namespace pacer {


/// none: no display, display times unknown (a pacer hears of no frame being shown).
/// offscreen: no display either, but a frame is done when presented (headless rendering):
/// its present's issue time is its display, with no refresh to pace on.
enum class PresentMode { none, fifo, mailbox, immediate, vrr, offscreen };

struct DisplaySpec {
  PresentMode mode = PresentMode::none;  ///< none: no display, display times unknown; offscreen: shown when presented
  /// Refresh period (fifo, mailbox) or the shortest refresh period (vrr: 1/MAX). 0 on fifo
  /// or mailbox: a rate nobody knows (written "fifo", "mailbox"; the engine's when the
  /// monitor reports none, as under Xvfb): no grid to plan on, and the simulator's display
  /// shows such a frame when it is presented.
  Nanos period{0};
  /// vrr: the longest refresh period (1/MIN); the panel refreshes on its own after it.
  Nanos max_period{0};
  /// Time of one vblank; the grid is phase + k x period.
  Nanos phase{0};
  /// Swapchain images (fifo, vrr): acquire blocks while all of them are queued or shown.
  int images = 3;
  /// The refresh period the display really has (0: the announced `period`).
  Nanos actual_period{0};
  /// The display clock's rate wanders by +-drift_ppm against the CPU clock (a triangle
  /// of phase over `drift_cycle`).
  std::int64_t drift_ppm = 0;
  Nanos drift_cycle{20'000'000'000};
  /// Reported display times are off by a uniform draw in [-jitter, +jitter].
  Nanos jitter{0};
  /// Seeds the jitter draws (the simulator sets it from its seed).
  std::uint64_t seed = 1;

  /// The refresh period of a display with a vblank grid a pacer plans on (fifo, mailbox,
  /// immediate:HZ), else 0: what a pacer quantizes its interval to.
  Nanos fixed_period() const {
    return (mode == PresentMode::fifo || mode == PresentMode::mailbox || mode == PresentMode::immediate) ? period
                                                                                                          : Nanos::zero();
  }
  /// true when a present is shown at a vblank (fifo, mailbox), not when it is made.
  bool latches() const { return mode == PresentMode::fifo || mode == PresentMode::mailbox; }
  /// true when a frame is done as its present is issued (offscreen: nothing to show it), not
  /// when the present call returns (an immediate or VRR display queues it then).
  bool shown_at_issue() const { return mode == PresentMode::offscreen; }
  /// The true refresh period.
  Nanos true_period() const { return actual_period > Nanos::zero() ? actual_period : period; }
};

/// Refresh period of `hz` (rounded to the nearest ns): 60 -> 16'666'667 ns. Throws
/// std::invalid_argument for a rate that is not finite or under 1 mHz (0: a monitor that
/// reports no rate has no period to give; leave DisplaySpec::period 0).
Nanos period_of_hz(double hz);

/// Parses "none", "fifo:HZ", "mailbox:HZ", "immediate", "immediate:HZ", "vrr:MIN-MAX" (Hz),
/// with the honest-clock options of the header ("@ACTUAL_HZ", ",drift=Nppm", ",jitter=Nus");
/// nullopt if malformed.
std::optional<DisplaySpec> parse_display(std::string_view text);
/// The spec written back in the syntax parse_display reads.
std::string to_string(const DisplaySpec& spec);

}  // namespace pacer
