#include "pacer/simulator.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

#include "pacer/frame_driver.hpp"
#include "pacer/gpu_queue.hpp"

namespace pacer {

DisplaySpec sim_display(const SimOptions& options) {
  DisplaySpec spec = options.display;
  spec.seed = options.seed * 0x2545f4914f6cdd1dULL + 1;  // the display's jitter draws, apart from the waiter's
  return spec;
}

namespace {

/// The virtual-time loop: a render advances the clock by its cost, an update by the
/// update cost, a wait jumps to the deadline plus the modelled wake error. With a GPU
/// cost, the GPU's queue as the engine's renderer has it (frames in flight, fences).
class SimHost final : public FrameHost {
 public:
  SimHost(Pacer& pacer, const SimCosts& costs, const SimOptions& options, SimRun& run)
      : pacer_{pacer}, costs_{costs}, display_{sim_display(options)}, waiter_{options.waiter, options.seed},
        run_{run}, timeline_{options.timeline}, display_times_{options.display_times},
        shown_at_issue_{options.display.shown_at_issue()}, now_{options.start}, gpu_{options.frames_in_flight} {}

  Nanos now() override { return now_; }
  bool acquire() override {
    // Acquiring a swapchain image may block: the loop spends it inside the render.
    const Nanos acquired = display_.acquire(now_);
    run_.acquire_blocked += acquired - now_;
    now_ = gpu_.acquire(acquired);  // then the frame slot's fence (no GPU cost: never waits)
    return true;
  }
  void render(const FramePlan& plan) override {
    if (timeline_) run_.timeline.push_back({TimelineEntry::render, plan.start});
    render_cost_ = costs_.render(frame_);
    now_ += render_cost_;
    if (!costs_.gpu) return;
    const Nanos done = gpu_.submit(frame_, now_, costs_.gpu(frame_));
    // A present held to a planned time waits for its frame's GPU work first, as part of
    // the render (the engine's FrameTarget::wait_drawn).
    if (plan.present_at >= Nanos::zero()) now_ = std::max(now_, done);
  }
  PresentResult present(std::int64_t frame) override {
    // The call itself takes CPU time (after any hold); the frame is queued when it returns,
    // offscreen done when it is issued (the engine's headless target reports that time).
    const Nanos issued = now_;
    if (costs_.present) now_ += costs_.present(frame_);
    // The presentation engine shows a frame once its GPU work is done.
    const Presented p = display_.present(frame, gpu_.ready(shown_at_issue_ ? issued : now_));
    if (p.replaced) ++run_.replaced;
    ++frame_;
    if (!display_times_) return {};  // the loop hears of neither the display nor a replacement
    return {p.display, p.replaced};
  }
  void update(Nanos) override {
    now_ += costs_.update(frame_ - 1, updates_++);
    if (timeline_) run_.timeline.push_back({TimelineEntry::update, pacer_.clock().current()});
  }
  void wait_until(Nanos deadline) override {
    if (timeline_) run_.timeline.push_back({TimelineEntry::wait, deadline});
    now_ = waiter_.wake(now_, deadline);
  }
  void hold_until(Nanos deadline) override { now_ = waiter_.wake(now_, deadline); }
  /// The loop's own time after a present, on the way to the next frame (SimCosts::between).
  void spend(Nanos t) { now_ += std::max(t, Nanos::zero()); }
  TimingSource timing_source() const override { return TimingSource::virtual_time; }
  std::optional<double> load_ms() const override { return to_ms(render_cost_); }
  bool reports_gpu() const override { return static_cast<bool>(costs_.gpu); }
  void poll_gpu(const std::function<void(std::int64_t, Nanos)>& sink) override { gpu_.poll(now_, sink); }

 private:
  Pacer& pacer_;
  const SimCosts& costs_;
  DisplayModel display_;
  SleepModel waiter_;
  SimRun& run_;
  bool timeline_;
  bool display_times_;  ///< SimOptions::display_times
  bool shown_at_issue_;  ///< DisplaySpec::shown_at_issue
  Nanos now_;
  std::int64_t frame_ = 0;    ///< frames rendered so far
  std::int64_t updates_ = 0;  ///< updates run so far (the update cost's index)
  Nanos render_cost_{0};      ///< of the latest render
  GpuQueue gpu_;              ///< empty without a GPU cost
};

}  // namespace

SimRun simulate(Pacer& pacer, const SimCosts& costs, std::int64_t frames, const SimOptions& options,
                const RecordSink& sink) {
  SimRun run;
  SimHost host{pacer, costs, options, run};
  FrameDriver driver{host, [&](const FrameRecord& r) {
                       if (sink) sink(r);
                     }};
  driver.use(pacer);
  for (std::int64_t frame = 0; frame < frames; ++frame) {
    driver.render_frame();
    if (frame + 1 == frames) break;  // the run stops right after the last render
    if (costs.between) host.spend(costs.between(frame + 1));
    driver.run_actions();
  }
  driver.finish();
  run.end = host.now();
  return run;
}

SimRun simulate(Pacer& pacer, const SimCosts& costs, std::int64_t frames, const SimOptions& options) {
  std::vector<FrameRecord> records;
  if (frames > 0) records.reserve(static_cast<std::size_t>(std::min<std::int64_t>(frames, 1 << 20)));
  SimRun run = simulate(pacer, costs, frames, options, [&](const FrameRecord& r) { records.push_back(r); });
  run.records = std::move(records);
  return run;
}

SimRun simulate(Pacer& pacer, const SimCosts& costs, std::int64_t frames, Nanos start) {
  SimOptions options;
  options.start = start;
  options.timeline = true;
  return simulate(pacer, costs, frames, options);
}

std::string format_ms_short(Nanos t) {
  const std::int64_t ns = t.count();
  const std::int64_t whole = ns / 1'000'000;
  std::int64_t frac = std::llabs(ns % 1'000'000);
  std::string out = (ns < 0 && whole == 0) ? "-" : "";
  out += std::to_string(whole);
  if (frac != 0) {
    char digits[8];
    std::snprintf(digits, sizeof digits, "%06lld", static_cast<long long>(frac));
    std::string f{digits};
    while (!f.empty() && f.back() == '0') f.pop_back();
    out += '.';
    out += f;
  }
  return out;
}

std::string format_timeline(std::span<const TimelineEntry> timeline) {
  std::string out;
  for (const auto& e : timeline) {
    if (!out.empty()) out += ' ';
    out += static_cast<char>(e.kind);
    out += format_ms_short(e.time);
  }
  return out;
}

}  // namespace pacer
