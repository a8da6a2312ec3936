// Library preconditions (issue 10, item 3): a config no policy can run is refused when
// the pacer is made, with std::invalid_argument naming the field and its value; unknown
// policy names are an error listing the known ones; with protocol checks on, calls out of
// the protocol's order throw std::logic_error, and the frame driver never trips them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "pacer/frame_driver.hpp"
#include "pacer/policies.hpp"
#include "pacer/simulator.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

/// The message of the std::invalid_argument `make` throws ("" when it throws none).
template <class F>
std::string refusal(F make) {
  try {
    make();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string refusal_for(std::string_view policy, const PolicyConfig& cfg) {
  return refusal([&] { (void)make_pacer(policy, cfg); });
}

}  // namespace

TEST(Preconditions, AStepOfZeroIsACleanErrorForEveryPolicy) {
  // Was SIGFPE (an integer division by the step in adaptive.cpp).
  PolicyConfig cfg;
  cfg.sim.step = Nanos::zero();
  for (const std::string_view name : policy_names())
    EXPECT_EQ(refusal_for(name, cfg), "FixedStepConfig::step must be > 0 and at most an hour, got 0 ns") << name;
  EXPECT_NE(refusal([&] { AdaptivePolicy p(cfg.adaptive, cfg.sim); }), "");
  EXPECT_NE(refusal([&] { FlipcodePolicy p({}, cfg.sim); }), "");
  cfg.sim.step = Nanos{-5};
  EXPECT_NE(refusal_for("adaptive", cfg).find("got -5 ns"), std::string::npos);
}

TEST(Preconditions, FixedStepFields) {
  PolicyConfig cfg;
  cfg.sim.max_steps_per_frame = 0;
  EXPECT_EQ(refusal_for("flipcode", cfg), "FixedStepConfig::max_steps_per_frame must be >= 1, got 0");
  cfg = {};
  cfg.sim.stall_clamp = Nanos{-1};
  EXPECT_EQ(refusal_for("adaptive", cfg), "FixedStepConfig::stall_clamp must be >= 0, got -1 ns");
  cfg = {};
  cfg.sim.stall_clamp = Nanos::zero();  // adaptive and flipcode: no clamp; the accumulators need one
  EXPECT_EQ(refusal_for("adaptive", cfg), "");
  EXPECT_EQ(refusal_for("accumulator", cfg), "FixedStepConfig::stall_clamp must be > 0 for this policy, got 0 ns");
  EXPECT_NE(refusal_for("variable", cfg), "");
}

TEST(Preconditions, AdaptiveFieldsAreNamedWithTheirValues) {
  struct Case {
    void (*set)(AdaptiveConfig&);
    const char* message;
  };
  const Case cases[] = {
      {[](AdaptiveConfig& c) { c.widen_factor = 1.0; }, "AdaptiveConfig::widen_factor must be > 1, got 1"},
      {[](AdaptiveConfig& c) { c.widen_factor = std::nan(""); }, "AdaptiveConfig::widen_factor must be > 1, got nan"},
      {[](AdaptiveConfig& c) { c.widen_factor = std::numeric_limits<double>::infinity(); },
       "AdaptiveConfig::widen_factor must be > 1, got inf"},
      {[](AdaptiveConfig& c) { c.shrink_fraction = 0; }, "AdaptiveConfig::shrink_fraction must be in (0, 1], got 0"},
      {[](AdaptiveConfig& c) { c.shrink_fraction = 1.5; }, "AdaptiveConfig::shrink_fraction must be in (0, 1], got 1.5"},
      {[](AdaptiveConfig& c) { c.min_interval = Nanos::zero(); },
       "AdaptiveConfig::min_interval must be > 0 and at most an hour, got 0 ns"},
      {[](AdaptiveConfig& c) { c.max_interval = 1_ms; },
       "AdaptiveConfig::max_interval must be >= min_interval (4166667 ns), got 1000000 ns"},
      {[](AdaptiveConfig& c) { c.initial_interval = Nanos{-16}; },
       "AdaptiveConfig::initial_interval must be > 0 and at most an hour, got -16 ns"},
      {[](AdaptiveConfig& c) { c.shrink_window = 0; }, "AdaptiveConfig::shrink_window must be >= 1, got 0"},
      {[](AdaptiveConfig& c) { c.hitch_frames = 0; }, "AdaptiveConfig::hitch_frames must be >= 1, got 0"},
      {[](AdaptiveConfig& c) { c.render_history = -3; }, "AdaptiveConfig::render_history must be >= 1, got -3"},
      {[](AdaptiveConfig& c) { c.deep_history = 0; }, "AdaptiveConfig::deep_history must be >= 1, got 0"},
      {[](AdaptiveConfig& c) { c.pipeline_frames = 0; }, "AdaptiveConfig::pipeline_frames must be >= 1, got 0"},
      {[](AdaptiveConfig& c) { c.shallow_pipeline = 0.5; }, "AdaptiveConfig::shallow_pipeline must be in [1, 15], got 0.5"},
      {[](AdaptiveConfig& c) { c.mixed_lead_deep_percentile = 101; },
       "AdaptiveConfig::mixed_lead_deep_percentile must be in [0, 100], got 101"},
      {[](AdaptiveConfig& c) { c.misses_to_widen = 0; }, "AdaptiveConfig::misses_to_widen must be >= 1, got 0"},
      {[](AdaptiveConfig& c) { c.shrink_percentile = 0; },
       "AdaptiveConfig::shrink_percentile must be in (0, 100], got 0"},
      {[](AdaptiveConfig& c) { c.shrink_percentile = 101; },
       "AdaptiveConfig::shrink_percentile must be in (0, 100], got 101"},
      {[](AdaptiveConfig& c) { c.max_backoff = 64; }, "AdaptiveConfig::max_backoff must be <= 20, got 64"},
      {[](AdaptiveConfig& c) { c.refresh_period = Nanos{-1}; },
       "AdaptiveConfig::refresh_period must be >= 0 and at most an hour, got -1 ns"},
      {[](AdaptiveConfig& c) { c.present_margin = Nanos{-1}; },
       "AdaptiveConfig::present_margin must be >= 0 and at most an hour, got -1 ns"},
      {[](AdaptiveConfig& c) { c.mixed_margin = 0.5; }, "AdaptiveConfig::mixed_margin must be >= 1, got 0.5"},
      {[](AdaptiveConfig& c) { c.spiral_ratio = 0; }, "AdaptiveConfig::spiral_ratio must be > 0, got 0"},
      {[](AdaptiveConfig& c) { c.catch_up = std::nan(""); }, "AdaptiveConfig::catch_up must be finite, got nan"},
      {[](AdaptiveConfig& c) { c.catch_up_burst = Nanos{-1}; },
       "AdaptiveConfig::catch_up_burst must be >= 0 and at most an hour, got -1 ns"},
      {[](AdaptiveConfig& c) { c.catch_up_pile = 1; }, "AdaptiveConfig::catch_up_pile must be in (0, 1), got 1"},
      {[](AdaptiveConfig& c) { c.catch_up_late = 0; }, "AdaptiveConfig::catch_up_late must be > 0, got 0"},
      {[](AdaptiveConfig& c) { c.estimate_hitch_memory = -1; },
       "AdaptiveConfig::estimate_hitch_memory must be >= 0, got -1"},
      {[](AdaptiveConfig& c) { c.estimate_hitch_burst = -2; }, "AdaptiveConfig::estimate_hitch_burst must be >= 0, got -2"},
      {[](AdaptiveConfig& c) { c.estimate_hitch_ratio = 0.5; },
       "AdaptiveConfig::estimate_hitch_ratio must be >= 1, got 0.5"},
      {[](AdaptiveConfig& c) { c.present_call_history = 0; },
       "AdaptiveConfig::present_call_history must be >= 1, got 0"},
  };
  for (const Case& c : cases) {
    PolicyConfig cfg;
    c.set(cfg.adaptive);
    EXPECT_EQ(refusal_for("adaptive", cfg), c.message);
    EXPECT_EQ(refusal_for("adaptive-literal", cfg), c.message);
    EXPECT_EQ(refusal([&] { validate(cfg.adaptive); }), c.message);
  }
}

TEST(Preconditions, TheDefaultsAndAnInitialIntervalOutsideTheBoundsAreAccepted) {
  for (const std::string_view name : policy_names()) EXPECT_EQ(refusal_for(name, {}), "") << name;
  // fit_to_display raises min_interval to a slow VRR panel's period: the initial interval
  // is clamped, not refused.
  PolicyConfig cfg;
  fit_to_display(cfg, *parse_display("vrr:20-30"));
  auto p = create_pacer("adaptive", cfg);
  EXPECT_EQ(p->interval(), period_of_hz(30));
}

TEST(Preconditions, AccumulatorTargetInterval) {
  PolicyConfig cfg;
  cfg.capped_interval = Nanos{-1};
  EXPECT_EQ(refusal_for("accumulator-capped", cfg),
            "AccumulatorConfig::target_interval must be >= 0 and at most an hour, got -1 ns");
}

TEST(Preconditions, UnknownPolicyNames) {
  EXPECT_EQ(refusal([] { (void)create_pacer("adaptiv", {}); }),
            "unknown policy 'adaptiv' (one of: adaptive, adaptive-literal, accumulator, accumulator-capped, "
            "flipcode, variable, swappy, framepace)");
  EXPECT_FALSE(is_policy_name("adaptiv"));
  for (const std::string_view name : policy_names()) {
    EXPECT_TRUE(is_policy_name(name));
    EXPECT_EQ(create_pacer(name, {})->name(), name);
  }
  EXPECT_EQ(make_pacer("adaptiv", {}), nullptr) << "make_pacer keeps its nullptr for callers that check first";
}

// ---------------------------------------------------------------- protocol order

namespace {

/// The message of the std::logic_error `call` throws ("" when it throws none).
template <class F>
std::string violation(F call) {
  try {
    call();
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "";
}

std::unique_ptr<Pacer> checked_pacer(std::string_view name = "adaptive") {
  PolicyConfig cfg;
  cfg.sim.step = 5_ms;
  auto p = create_pacer(name, cfg);
  p->set_protocol_checks(true);
  return p;
}

}  // namespace

TEST(Protocol, ChecksFollowTheBuildByDefault) {
  auto p = create_pacer("adaptive", {});
  EXPECT_EQ(p->protocol_checks(), Pacer::protocol_checks_default());
}

TEST(Protocol, EndRenderWithoutBeginFrame) {
  auto p = checked_pacer();
  EXPECT_EQ(violation([&] { p->end_render(0_ms); }),
            "pacer protocol: end_render() called before the first begin_frame() (policy adaptive, frame -1)");
  p->begin_frame(0_ms);
  p->end_render(1_ms);
  EXPECT_NE(violation([&] { p->end_render(2_ms); }), "") << "a second end_render()";
}

TEST(Protocol, NextBeforeEndRender) {
  auto p = checked_pacer();
  p->begin_frame(0_ms);
  EXPECT_EQ(violation([&] { (void)p->next(1_ms); }),
            "pacer protocol: next() called between begin_frame() and end_render() (policy adaptive, frame 0)");
}

TEST(Protocol, EndUpdateWithoutAnUpdateAndNextDuringOne) {
  auto p = checked_pacer();
  p->begin_frame(0_ms);
  p->end_render(3_ms);
  EXPECT_NE(violation([&] { p->end_update(3_ms); }), "") << "no update was announced";
  const Action a = p->next(3_ms);
  ASSERT_EQ(a.kind, ActionKind::update);
  EXPECT_NE(violation([&] { (void)p->next(4_ms); }).find("in an update"), std::string::npos);
  EXPECT_NE(violation([&] { p->begin_frame(4_ms); }), "");
  p->end_update(4_ms);
  EXPECT_NE(violation([&] { p->end_update(4_ms); }), "") << "one end_update() per update";
}

TEST(Protocol, NextAfterItAnsweredRender) {
  for (const std::string_view name : policy_names()) {
    auto p = checked_pacer(name);
    Nanos now = 0_ms;
    p->begin_frame(now);
    p->end_render(now += 3_ms);
    for (Action a = p->next(now);; a = p->next(now)) {
      if (a.kind == ActionKind::render) break;
      if (a.kind == ActionKind::update) p->end_update(now += 1_ms);
      if (a.kind == ActionKind::wait) now = std::max(now, a.until);
    }
    EXPECT_NE(violation([&] { (void)p->next(now); }), "") << name;
    p->begin_frame(now);  // the right call
  }
}

TEST(Protocol, ADisplayTimeNotYetComeOrForAFrameNotBegunIsNoDisplayTime) {
  // A host's bug: frame 10 reported shown 200 days ahead stalled adaptive's next frame that
  // long (and a time near Nanos::max() hung its vblank grid). Refused with checks on; with
  // them off ignored, and the loop goes on at its interval.
  PolicyConfig cfg;
  cfg.sim.step = 5_ms;
  fit_to_display(cfg, *parse_display("fifo:60"));
  for (const bool checks : {true, false}) {
    SCOPED_TRACE(checks ? "checks on" : "checks off");
    auto p = create_pacer("adaptive", cfg);
    p->set_protocol_checks(checks);
    Nanos now = 0_ms, last_start{0};
    for (std::int64_t f = 0; f < 40; ++f) {
      const FramePlan plan = p->begin_frame(now);
      if (f == 39) {
        EXPECT_LT(plan.start - last_start, 100_ms) << "the loop was not stalled";
      }
      last_start = plan.start;
      p->end_render(now += 3_ms);
      if (plan.present_at > now) {
        const Nanos from = now;
        now = plan.present_at;
        p->hold_present(from, now);
      }
      p->set_presentation(now, now, std::nullopt, TimingSource::cpu);
      const Nanos shown{(now.count() / 16'666'667 + 1) * 16'666'667};
      if (f == 20) {
        for (const Nanos bogus : {now + std::chrono::hours{24 * 200}, Nanos::max()}) {
          const std::string why = violation([&] { p->observe_display(f, bogus); });
          EXPECT_EQ(why.empty(), !checks) << why;
          if (checks) {
            EXPECT_NE(why.find("is more than 10 s after the latest time"), std::string::npos) << why;
          }
        }
        const std::string ahead = violation([&] { p->observe_display(f + 5, shown); });
        if (checks) {
          EXPECT_NE(ahead.find("names a frame not yet begun"), std::string::npos) << ahead;
        }
      }
      p->observe_display(f, shown);
      for (Action a = p->next(now); a.kind != ActionKind::render; a = p->next(now)) {
        if (a.kind == ActionKind::update) p->end_update(now += 500_us);
        if (a.kind == ActionKind::wait) {
          now = std::max(now, a.until);
          p->observe_wake(a.until, now);
        }
      }
    }
  }
}

TEST(Protocol, AFrameDriverSwitchedWhileAPresentIsHeldPresentsItFirst) {
  // use() with a hold (or a wait) pending from the non-blocking calls: the old pacer's frame
  // is presented and finished there, and the new pacer starts at a frame boundary. It went
  // on into the new pacer (checks on: a logic_error; off: frame 100 logged twice).
  struct Host final : FrameHost {
    Nanos t{0}, last{0};
    Nanos now() override { return t; }
    bool acquire() override { return true; }
    void render(const FramePlan&) override { t += 4_ms; }
    PresentResult present(std::int64_t) override {
      Nanos s = ((t + 16'666'667_ns - 1_ns) / 16'666'667_ns) * 16'666'667_ns;
      if (s <= last) s = last + 16'666'667_ns;
      last = s;
      return {s, std::nullopt};
    }
    void update(Nanos) override { t += 1_ms; }
    void wait_until(Nanos d) override { t = std::max(t, d); }
    TimingSource timing_source() const override { return TimingSource::virtual_time; }
  };
  for (const bool at_wait : {false, true}) {
    Host host;
    std::vector<std::int64_t> frames;
    FrameDriver driver{host, [&](const FrameRecord& r) { frames.push_back(r.frame); }};
    PolicyConfig cfg;
    fit_to_display(cfg, *parse_display("immediate:60"));
    auto a = create_pacer("adaptive", cfg), b = create_pacer("flipcode", cfg);
    a->set_protocol_checks(true);
    b->set_protocol_checks(true);
    driver.use(*a);
    for (int i = 0; i < 20; ++i) {
      ASSERT_TRUE(driver.render_frame());
      driver.run_actions();
    }
    // Non-blocking until a hold (or a wait) is pending.
    bool pending = false;
    for (int i = 0; i < 100 && !pending; ++i) {
      FrameDriver::Stop s = driver.render_due();
      if (s == FrameDriver::Stop::hold) {
        if (!at_wait) pending = true;
        else {
          host.t = driver.due();
          s = driver.render_due();
        }
      }
      if (!pending && s == FrameDriver::Stop::presented) {
        while ((s = driver.actions_due()) == FrameDriver::Stop::wait && !at_wait) host.t = driver.due();
        if (s == FrameDriver::Stop::wait) pending = true;
      }
    }
    ASSERT_TRUE(pending && driver.suspended()) << at_wait;
    EXPECT_EQ(violation([&] { driver.use(*b); }), "") << at_wait;
    EXPECT_FALSE(driver.suspended());
    for (int i = 0; i < 20; ++i) {
      ASSERT_TRUE(driver.render_frame());
      driver.run_actions();
    }
    driver.finish();
    for (std::size_t i = 1; i < frames.size(); ++i) EXPECT_EQ(frames[i], frames[i - 1] + 1) << at_wait << " at " << i;
    EXPECT_EQ(static_cast<std::int64_t>(frames.size()), driver.frames()) << at_wait;
  }
}

TEST(Protocol, AFrameDriverWithNoPacerIsALogicError) {
  struct Host final : FrameHost {
    Nanos now() override { return 0_ms; }
    bool acquire() override { return true; }
    void render(const FramePlan&) override {}
    PresentResult present(std::int64_t) override { return {}; }
    void update(Nanos) override {}
    void wait_until(Nanos) override {}
    TimingSource timing_source() const override { return TimingSource::virtual_time; }
  } host;
  FrameDriver driver{host, nullptr};
  EXPECT_EQ(violation([&] { (void)driver.render_frame(); }), "FrameDriver: no pacer in use (call use() before the first frame)");
  EXPECT_NE(violation([&] { driver.run_actions(); }), "");
  EXPECT_NE(violation([&] { (void)driver.render_due(); }), "");
}

TEST(Protocol, ChecksOffAllowAnything) {
  auto p = checked_pacer();
  p->set_protocol_checks(false);
  EXPECT_EQ(violation([&] { p->end_render(0_ms); }), "");
}

TEST(Protocol, TheSimulatorsFrameDriverKeepsTheOrder) {
  // Every policy on every kind of display, with the checks on: the driver never trips them.
  for (const char* text : {"none", "fifo:60", "mailbox:60", "immediate:60", "vrr:48-144"}) {
    const DisplaySpec display = *parse_display(text);
    for (const std::string_view name : policy_names()) {
      PolicyConfig cfg;
      fit_to_display(cfg, display);
      auto p = create_pacer(name, cfg);
      p->set_protocol_checks(true);
      SimOptions sim;
      sim.display = display;
      const SimCosts costs{[](std::int64_t f) { return Nanos{3'000'000 + (f % 7) * 2'000'000}; },
                           [](std::int64_t, std::int64_t) { return 1_ms; }};
      EXPECT_NO_THROW(simulate(*p, costs, 300, sim)) << name << " on " << text;
    }
  }
}
