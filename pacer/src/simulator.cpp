#include "pacer/simulator.hpp"

#include <cstdio>
#include <cstdlib>

namespace pacer {

SimRun simulate(Pacer& pacer, const SimCosts& costs, std::int64_t frames, Nanos start) {
  SimRun run;
  if (frames > 0) run.records.reserve(static_cast<std::size_t>(frames));
  Nanos now = start;
  std::int64_t updates = 0;
  for (std::int64_t frame = 0; frame < frames; ++frame) {
    pacer.begin_frame(now);
    if (auto done = pacer.take_record()) run.records.push_back(*done);
    run.timeline.push_back({TimelineEntry::render, now});
    now += costs.render(frame);
    pacer.end_render(now);
    pacer.set_presentation(now, std::nullopt, TimingSource::virtual_time);
    if (frame + 1 == frames) break;
    for (bool more = true; more;) {
      const Action act = pacer.next(now);
      switch (act.kind) {
        case ActionKind::update:
          now += costs.update(frame, updates++);
          pacer.end_update(now);
          run.timeline.push_back({TimelineEntry::update, pacer.clock().current()});
          break;
        case ActionKind::wait:
          run.timeline.push_back({TimelineEntry::wait, act.until});
          if (act.until > now) now = act.until;
          break;
        case ActionKind::render:
          more = false;
          break;
      }
    }
  }
  pacer.finish(now);
  if (auto done = pacer.take_record()) run.records.push_back(*done);
  run.end = now;
  return run;
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
