// pacer/policies.hpp - every policy by name, for command lines and comparison runs.
//
//   using namespace std::chrono_literals;  // the time literals below (ms, ns)
//   pacer::PolicyConfig cfg;                       // defaults of each part apply
//   cfg.sim.step = 40ms;                           // a 25 Hz simulation
//   std::unique_ptr<pacer::Pacer> p = pacer::create_pacer("flipcode", cfg);
//   // throws std::invalid_argument for an unknown name (listing the known ones) or a
//   // config a policy refuses (naming the field and its value)
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "pacer/adaptive.hpp"
#include "pacer/baselines.hpp"
#include "pacer/display_spec.hpp"
#include "pacer/framepace.hpp"
#include "pacer/swappy.hpp"

namespace pacer {

/// The refresh period assumed for a display that shows presents at once and reports no
/// rate (immediate): 60 Hz, the most common monitor.
inline constexpr Nanos kAssumedRefreshPeriod{16'666'667};

struct PolicyConfig {
  FixedStepConfig sim{};
  AdaptiveConfig adaptive{};
  /// The frame-rate target of accumulator-capped (1/60 s).
  Nanos capped_interval{16'666'667};
  /// The peers (docs/pacing.md, "Peers"): Android Frame Pacing and bevy_framepace.
  SwappyConfig swappy{};
  FramepaceConfig framepace{};
};

/// Tells the policies the display they pace: the refresh period of one with a vblank grid
/// (fifo, mailbox, immediate:HZ), whether a present is shown at a vblank (fifo, mailbox)
/// or at once, whether presents queue (FIFO, VRR) or are held to their time (mailbox,
/// immediate), how many frames the swapchain lets start ahead (images - 1), and on VRR
/// the panel's fastest refresh as the frame-rate cap; on immediate with no rate known,
/// kAssumedRefreshPeriod as the cap. The peers get the refresh they pace
/// on (the display's; 60 Hz when it has none known, none or immediate; a VRR panel's
/// fastest): Swappy's vsync grid and swap duration (the game asks for the full rate) and
/// whether presents latch to vblanks, bevy_framepace's Limiter::Auto frame time. The
/// engine and the simulator both call it: one mapping from a display to a policy's
/// configuration. It raises min_interval and lowers pipeline_frames from the values it is
/// given (your frame-rate cap and queue depth stay bounds), so fit a copy of your own
/// settings for each display, not a config already fitted to another one: that one keeps
/// the other display's cap and depth. A running pacer keeps the display it was made for:
/// when the display changes (vsync toggled, a monitor of another rate), fit again and make a
/// new pacer (engine::Loop::set_pacing, FrameDriver::use).
void fit_to_display(PolicyConfig& cfg, const DisplaySpec& display);

/// "adaptive", "adaptive-literal", "accumulator", "accumulator-capped", "flipcode", "variable",
/// "swappy", "framepace".
std::span<const std::string_view> policy_names();

/// True for a name in policy_names().
bool is_policy_name(std::string_view name);

/// The named policy. flipcode is networked when cfg.sim.debt is DebtPolicy::keep. Throws
/// std::invalid_argument for an unknown name ("unknown policy 'x' (one of: adaptive, ...)")
/// and for a config the policy refuses (validate(): the message names the field and value).
std::unique_ptr<Pacer> create_pacer(std::string_view name, const PolicyConfig& cfg);

/// As create_pacer, but nullptr for an unknown name (callers that check the name first
/// keep working); a bad config still throws std::invalid_argument.
[[nodiscard]] std::unique_ptr<Pacer> make_pacer(std::string_view name, const PolicyConfig& cfg);

}  // namespace pacer
