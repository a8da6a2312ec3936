#include "pacer/policies.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace pacer {

std::span<const std::string_view> policy_names() {
  static constexpr std::array<std::string_view, 8> names{
      "adaptive", "adaptive-literal", "accumulator", "accumulator-capped", "flipcode", "variable", "swappy", "framepace"};
  return names;
}

void fit_to_display(PolicyConfig& cfg, const DisplaySpec& display) {
  cfg.adaptive.refresh_period = display.fixed_period();
  // A present is shown at a vblank (fifo, mailbox) or when it is made (immediate, vrr).
  cfg.adaptive.vblank_latch = display.latches();
  // Only FIFO (and VRR, which blocks as FIFO does) queues presents one per refresh.
  cfg.adaptive.queued_presents = display.mode == PresentMode::fifo || display.mode == PresentMode::vrr;
  if (display.mode == PresentMode::fifo || display.mode == PresentMode::vrr)
    cfg.adaptive.pipeline_frames = std::clamp(display.images - 1, 1, cfg.adaptive.pipeline_frames);
  else
    cfg.adaptive.pipeline_frames = 1;  // nothing queues: every present is held to its time
  if (display.mode == PresentMode::vrr) {
    cfg.adaptive.min_interval = std::max(cfg.adaptive.min_interval, display.period);
    cfg.adaptive.vrr_max_period = display.max_period;  // VRR: its own rules (docs/pacing.md, "VRR")
  } else {
    cfg.adaptive.vrr_max_period = Nanos::zero();  // not VRR, whatever display it was fitted to before
  }
  // Immediate with no refresh known: a monitor still refreshes, most often at 60 Hz, and
  // frames beyond its rate tear without showing more; cap there (give the real rate with
  // immediate:HZ). Classic loops are capped at 60 Hz there too (accumulator-capped).
  if (display.mode == PresentMode::immediate && display.period <= Nanos::zero())
    cfg.adaptive.min_interval =
        std::min(std::max(cfg.adaptive.min_interval, kAssumedRefreshPeriod), cfg.adaptive.max_interval);

  // A frame offscreen is done when its present is issued: nothing to issue ahead of.
  cfg.adaptive.present_call_lead = !display.shown_at_issue();
  // Offscreen (no monitor) has no such cap: adaptive's own min_interval bounds the rate.
  // The peers pace on a refresh: the display's grid (fifo, mailbox, immediate:HZ), a VRR
  // panel's fastest refresh, else (none, immediate, offscreen) 60 Hz.
  Nanos refresh = display.fixed_period();
  if (display.mode == PresentMode::vrr) refresh = display.period;
  if (refresh <= Nanos::zero()) refresh = kAssumedRefreshPeriod;
  // Swappy: Choreographer's vsync grid; the game asks for the full rate
  // (SwappyGL_setSwapIntervalNS(refresh)); presents latch to vblanks on fifo and mailbox.
  cfg.swappy.refresh_period = refresh;
  cfg.swappy.swap_duration = refresh;
  cfg.swappy.vblank_latch = display.latches();
  if (display.phase >= Nanos::zero()) cfg.swappy.vblank_phase = display.phase;
  cfg.swappy.vblank_margin = std::min(cfg.swappy.vblank_margin, refresh / 4);
  // bevy_framepace's Limiter::Auto: the monitor's refresh less 0.5 Hz.
  cfg.framepace.frametime_limit = framepace_auto_limit(refresh);
}

bool is_policy_name(std::string_view name) {
  const auto names = policy_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::unique_ptr<Pacer> create_pacer(std::string_view name, const PolicyConfig& cfg) {
  if (auto p = make_pacer(name, cfg)) return p;
  std::string known;
  for (const std::string_view n : policy_names()) {
    if (!known.empty()) known += ", ";
    known += n;
  }
  throw std::invalid_argument("unknown policy '" + std::string{name} + "' (one of: " + known + ")");
}

std::unique_ptr<Pacer> make_pacer(std::string_view name, const PolicyConfig& cfg) {
  if (name == "adaptive") return std::make_unique<AdaptivePolicy>(cfg.adaptive, cfg.sim);
  if (name == "adaptive-literal") return std::make_unique<AdaptiveLiteralPolicy>(cfg.adaptive, cfg.sim);
  if (name == "accumulator") return std::make_unique<AccumulatorPolicy>(AccumulatorConfig{}, cfg.sim);
  if (name == "accumulator-capped")
    return std::make_unique<AccumulatorPolicy>(AccumulatorConfig{cfg.capped_interval}, cfg.sim);
  if (name == "flipcode")
    return std::make_unique<FlipcodePolicy>(FlipcodeConfig{cfg.sim.debt == DebtPolicy::keep}, cfg.sim);
  if (name == "variable") return std::make_unique<VariablePolicy>(cfg.sim);
  if (name == "swappy") return std::make_unique<SwappyPolicy>(cfg.swappy, cfg.sim);
  if (name == "framepace") return std::make_unique<FramepacePolicy>(cfg.framepace, cfg.sim);
  return nullptr;
}

}  // namespace pacer
