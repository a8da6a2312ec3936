#include "pacer/pacer.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "pacer/decimal.hpp"

namespace pacer {

namespace {

/// Every event bit with its name in the log, in the order format_events writes them.
constexpr std::array<std::pair<unsigned, std::string_view>, 5> event_names{{
    {event_widen, "widen"},
    {event_shrink, "shrink"},
    {event_quantize, "quantize"},
    {event_stall_clamp, "stall_clamp"},
    {event_step_cap, "step_cap"},
}};

}  // namespace

namespace detail {

void config_error(std::string_view what, std::string_view rule, std::string_view value) {
  std::string message{what};
  message += " must be ";
  message += rule;
  message += ", got ";
  message += value;
  throw std::invalid_argument(message);
}

std::string format_value(Nanos value) { return std::to_string(value.count()) + " ns"; }

std::string format_value(double value) { return format_general(value, 6); }

std::string format_value(std::int64_t value) { return std::to_string(value); }

}  // namespace detail

void validate(const FixedStepConfig& c) {
  using detail::config_error;
  using detail::format_value;
  constexpr Nanos hour{3'600'000'000'000};
  if (c.step <= Nanos::zero() || c.step > hour)
    config_error("FixedStepConfig::step", "> 0 and at most an hour", format_value(c.step));
  if (c.max_steps_per_frame < 1)
    config_error("FixedStepConfig::max_steps_per_frame", ">= 1", format_value(std::int64_t{c.max_steps_per_frame}));
  if (c.stall_clamp < Nanos::zero())
    config_error("FixedStepConfig::stall_clamp", ">= 0", format_value(c.stall_clamp));
}

std::string format_events(unsigned events) {
  std::string out;
  for (const auto& [bit, name] : event_names) {
    if ((events & bit) == 0) continue;
    if (!out.empty()) out += ';';
    out += name;
  }
  return out.empty() ? std::string{"none"} : out;
}

std::optional<unsigned> parse_events(std::string_view text) {
  if (text == "none") return event_none;
  unsigned events = 0;
  for (;;) {
    const std::size_t at = text.find(';');
    const std::string_view name = text.substr(0, at);
    const auto it = std::find_if(event_names.begin(), event_names.end(), [&](const auto& n) { return n.second == name; });
    if (it == event_names.end()) return std::nullopt;
    events |= it->first;
    if (at == std::string_view::npos) return events;
    text.remove_prefix(at + 1);
  }
}

std::optional<TimingSource> parse_timing_source(std::string_view text) {
  for (const TimingSource s : {TimingSource::virtual_time, TimingSource::cpu, TimingSource::present_wait})
    if (to_string(s) == text) return s;
  return std::nullopt;
}

std::string_view to_string(TimingSource source) {
  switch (source) {
    case TimingSource::virtual_time: return "virtual";
    case TimingSource::cpu: return "cpu";
    case TimingSource::present_wait: return "present_wait";
  }
  return "cpu";
}

bool Pacer::protocol_checks_default() {
#ifdef NDEBUG
  return false;
#else
  return true;
#endif
}

namespace {
std::string_view stage_text(int stage) {
  constexpr std::array<std::string_view, 6> text{
      "before the first begin_frame()", "between begin_frame() and end_render()",
      "between end_render() and the first next()", "in an update (next() answered update, end_update() not called)",
      "after a wait", "after next() answered render"};
  return text[static_cast<std::size_t>(stage)];
}
}  // namespace

void Pacer::expect(std::string_view call, std::initializer_list<Stage> allowed) const {
  if (!checks_) return;
  if (std::find(allowed.begin(), allowed.end(), stage_) != allowed.end()) return;
  throw std::logic_error("pacer protocol: " + std::string{call} + " called " +
                         std::string{stage_text(static_cast<int>(stage_))} + " (policy " + std::string{name_} +
                         ", frame " + std::to_string(next_frame_ - 1) + ")");
}

void Pacer::observe_display(std::int64_t frame, Nanos display) {
  // A host's bug, not a display: a time 200 days ahead stalled the loop that long (and one
  // near Nanos::max() hung the vblank grid's search).
  const bool unknown_frame = frame < 0 || frame >= next_frame_;
  const bool not_yet = latest_ != Nanos::min() && display > latest_ && display - display_report_slack > latest_;
  if (unknown_frame || not_yet) {
    if (!checks_) return;
    throw std::logic_error("pacer protocol: observe_display(" + std::to_string(frame) + ", " +
                           std::to_string(display.count()) + " ns) " +
                           (unknown_frame ? "names a frame not yet begun" : "is more than 10 s after the latest time") +
                           " (policy " + std::string{name_} + ", frame " + std::to_string(next_frame_ - 1) + ")");
  }
  on_observe_display(frame, display);
}

Nanos Pacer::monotonic(Nanos now) {
  if (now < latest_) return latest_;  // a clock that stepped back: time holds
  latest_ = now;
  return now;
}

FramePlan Pacer::begin_frame(Nanos now) {
  expect("begin_frame()", {Stage::idle, Stage::rendered, Stage::wait, Stage::decided});
  now = monotonic(now);
  stage_ = Stage::render;
  if (open_) close_frame(now);
  FrameRecord fresh{};
  fresh.frame = next_frame_;
  fresh.policy = name_;
  fresh.timing_source = record_.timing_source;  // a loop sets it once; it carries over
  fresh.cpu_start = now;
  record_ = fresh;  // before on_begin_frame, which may note events or dropped debt
  open_ = true;
  presentation_set_ = false;
  waiting_ = updating_ = false;

  FramePlan plan = on_begin_frame(now);
  plan.frame = next_frame_;
  plan.start = now;
  record_.planned_start = plan.planned_start;
  if (plan.present_at >= Nanos::zero()) record_.present_planned = plan.present_at;
  record_.interval = frame_interval();
  plan.interval = record_.interval;
  record_.sim_previous = plan.sim_previous;
  record_.sim_current = plan.sim_current;
  record_.alpha = plan.alpha;
  record_.animation_time = plan.animation_time;
  ++next_frame_;
  return plan;
}

void Pacer::end_render(Nanos now) {
  expect("end_render()", {Stage::render});
  stage_ = Stage::rendered;
  now = monotonic(now);
  record_.render = now - record_.cpu_start;
  if (!presentation_set_) record_.present = record_.present_issued = now;
  on_end_render(now);
  record_.interval = frame_interval();
}

Action Pacer::next(Nanos now) {
  expect("next()", {Stage::rendered, Stage::wait});
  now = monotonic(now);
  if (waiting_) {
    record_.pacer_wait += now - mark_;
    waiting_ = false;
  }
  const Action act = on_next(now);
  record_.interval = frame_interval();
  stage_ = act.kind == ActionKind::update ? Stage::update : act.kind == ActionKind::wait ? Stage::wait : Stage::decided;
  if (act.kind == ActionKind::update) {
    updating_ = true;
    mark_ = now;
  } else if (act.kind == ActionKind::wait) {
    waiting_ = true;
    mark_ = now;
  }
  return act;
}

void Pacer::end_update(Nanos now) {
  expect("end_update()", {Stage::update});
  stage_ = Stage::rendered;
  now = monotonic(now);
  if (updating_) {
    record_.update += now - mark_;
    ++record_.sim_steps;
    updating_ = false;
  }
  on_end_update(now);
  record_.interval = frame_interval();
}

void Pacer::hold_present(Nanos from, Nanos woke) {
  expect("hold_present()", {Stage::rendered, Stage::wait, Stage::decided});
  from = monotonic(from);
  woke = monotonic(woke);
  if (woke > from) record_.pacer_wait += woke - from;
  if (record_.present_planned) on_observe_wake(*record_.present_planned, woke);
}

void Pacer::set_presentation(Nanos issued, Nanos returned, std::optional<Nanos> display, TimingSource source) {
  expect("set_presentation()", {Stage::rendered, Stage::wait, Stage::decided});
  issued = monotonic(issued);
  returned = monotonic(returned);
  record_.present_issued = issued;
  record_.present = returned;
  record_.display = display;
  record_.timing_source = source;
  // The present call is render work (ms_render); a hold before it is not.
  if (returned > issued) {
    record_.render += returned - issued;
    on_present_call(returned - issued);
  }
  presentation_set_ = true;
}

bool Pacer::set_step(Nanos step) {
  if (stage_ != Stage::idle && stage_ != Stage::decided)
    throw std::logic_error("pacer protocol: set_step() called " + std::string{stage_text(static_cast<int>(stage_))} +
                           " (policy " + std::string{name_} + "): only between frames");
  FixedStepConfig check;
  check.step = step;
  validate(check);
  return on_set_step(step);
}

std::optional<FrameRecord> Pacer::take_record() {
  std::optional<FrameRecord> out;
  out.swap(completed_);
  return out;
}

void Pacer::finish(Nanos now) {
  stage_ = Stage::idle;
  now = monotonic(now);
  if (open_) close_frame(now);
}

void Pacer::close_frame(Nanos now) {
  if (waiting_) {
    record_.pacer_wait += now - mark_;
    waiting_ = false;
  }
  completed_ = record_;
  open_ = false;
}

}  // namespace pacer
