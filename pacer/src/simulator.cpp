#include "pacer/simulator.hpp"

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <optional>

namespace pacer {

SimRun simulate(Pacer& pacer, const SimCosts& costs, std::int64_t frames, const SimOptions& options) {
  SimRun run;
  if (frames > 0) run.records.reserve(static_cast<std::size_t>(frames));
  DisplayModel display{options.display};
  SleepModel waiter{options.waiter, options.seed};
  // Display times, per frame; fed back to the pacer once virtual time reaches them.
  std::vector<std::optional<Nanos>> shown(frames > 0 ? static_cast<std::size_t>(frames) : 0);
  std::deque<std::int64_t> unseen;  // frames shown (or to be shown) whose display time the pacer has not been told
  Nanos now = options.start;
  auto deliver = [&] {
    while (!unseen.empty()) {
      const auto f = static_cast<std::size_t>(unseen.front());
      if (!shown[f]) {  // replaced in the mailbox: never shown, never reported
        unseen.pop_front();
        continue;
      }
      if (*shown[f] > now) break;
      pacer.observe_display(unseen.front(), *shown[f]);
      unseen.pop_front();
    }
  };

  std::int64_t updates = 0;
  Nanos render_cost{0};  // of the frame whose record take() collects
  auto take = [&] {
    if (auto done = pacer.take_record()) {
      done->load_ms = to_ms(render_cost);
      run.records.push_back(*done);
    }
  };
  for (std::int64_t frame = 0; frame < frames; ++frame) {
    deliver();
    const FramePlan plan = pacer.begin_frame(now);
    take();
    run.timeline.push_back({TimelineEntry::render, now});
    // Acquiring a swapchain image may block: the loop spends it inside the render.
    const Nanos acquired = display.acquire(now);
    run.acquire_blocked += acquired - now;
    render_cost = costs.render(frame);
    now = acquired + render_cost;
    pacer.end_render(now);
    // A planned present is held until its time (by the same waiter as every wait).
    if (plan.present_at > now) now = waiter.wake(now, plan.present_at);
    const Presented p = display.present(frame, now);
    if (p.replaced) {
      shown[static_cast<std::size_t>(*p.replaced)].reset();
      ++run.replaced;
    }
    shown[static_cast<std::size_t>(frame)] = p.display;
    if (p.display) unseen.push_back(frame);
    pacer.set_presentation(now, p.display, TimingSource::virtual_time);
    if (frame + 1 == frames) break;
    for (bool more = true; more;) {
      deliver();
      const Action act = pacer.next(now);
      switch (act.kind) {
        case ActionKind::update:
          now += costs.update(frame, updates++);
          pacer.end_update(now);
          run.timeline.push_back({TimelineEntry::update, pacer.clock().current()});
          break;
        case ActionKind::wait:
          run.timeline.push_back({TimelineEntry::wait, act.until});
          now = waiter.wake(now, act.until);
          break;
        case ActionKind::render:
          more = false;
          break;
      }
    }
  }
  pacer.finish(now);
  take();
  // A mailbox frame replaced after its record was taken was never shown.
  for (auto& r : run.records) {
    if (r.frame >= 0 && r.frame < frames && r.display) r.display = shown[static_cast<std::size_t>(r.frame)];
  }
  run.end = now;
  return run;
}

SimRun simulate(Pacer& pacer, const SimCosts& costs, std::int64_t frames, Nanos start) {
  SimOptions options;
  options.start = start;
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
