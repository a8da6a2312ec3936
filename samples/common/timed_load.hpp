// samples/common/timed_load.hpp - the samples' load specs: pacer's (a cost per frame index,
// docs/load-profiles.md) plus two forms counted in seconds of run time, so that every
// policy meets the same phases at the same time however many frames it renders:
//
//   seq:5s*SPEC;5s*SPEC;...;SPEC   each SPEC for that many seconds, the last for ever; a
//                                  phase's SPEC counts its frames from 0 where the phase begins
//   spike:BASE,PEAK/Ts             BASE, and PEAK on the first frame at or after each T seconds
//
//   samples::TimedLoad load = samples::TimedLoad::parse("seq:5s*constant:1;constant:12", open);
//   double ms = load.ms(frame, seconds_since_first_frame);
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "pacer/decimal.hpp"
#include "pacer/load_profile.hpp"

namespace samples {

class TimedLoad {
 public:
  /// A zero load.
  TimedLoad() = default;

  /// Throws pacer::LoadSpecError ("load spec 'SPEC': WHAT", or a trace's own error).
  static TimedLoad parse(std::string_view spec, const pacer::TraceOpener& open) {
    TimedLoad t;
    t.spec_ = trim(spec);
    const std::string_view s = t.spec_;
    if (s.rfind("seq:", 0) == 0 && is_timed_seq(s.substr(4))) {
      t.kind_ = Kind::timed_seq;
      const auto items = split(s.substr(4), ';');
      for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string& item = items[i];
        const auto star = count_star(item);
        if (star == std::string::npos) {
          if (i + 1 != items.size()) throw error(s, "every part but the last needs Ns*SPEC");
          t.phase_seconds_.push_back(0);
          t.phases_.push_back(parse(item, open));
          continue;
        }
        const std::string count = trim(std::string_view{item}.substr(0, star));
        if (count.empty() || count.back() != 's')
          throw error(s, "the parts of a seq count all frames (N*SPEC) or all seconds (Ns*SPEC), not both");
        t.phase_seconds_.push_back(parse_seconds(count.substr(0, count.size() - 1), s, "phase length"));
        t.phases_.push_back(parse(std::string_view{item}.substr(star + 1), open));
      }
      return t;
    }
    if (s.rfind("spike:", 0) == 0 && !s.empty() && s.back() == 's') {
      t.kind_ = Kind::timed_spike;
      const std::string_view body = s.substr(6);
      const auto comma = body.find(','), slash = body.find('/');
      if (comma == std::string_view::npos || slash == std::string_view::npos || slash < comma)
        throw error(s, "expected spike:BASE,PEAK/Ts");
      t.base_ = milliseconds(trim(body.substr(0, comma)), s, "BASE");
      t.peak_ = milliseconds(trim(body.substr(comma + 1, slash - comma - 1)), s, "PEAK");
      const std::string period = trim(body.substr(slash + 1));
      t.period_s_ = parse_seconds(period.substr(0, period.size() - 1), s, "period");
      return t;
    }
    t.profile_ = pacer::LoadProfile::parse(s, open);
    return t;
  }

  /// The cost (ms) of frame `frame` (0, 1, 2, ... in order), begun `seconds` after the first
  /// frame. Asked again for the same frame, the same cost.
  double ms(std::int64_t frame, double seconds) {
    if (frame == last_frame_) return last_ms_;
    last_frame_ = frame;
    switch (kind_) {
      case Kind::frames:
        last_ms_ = profile_.ms_at(frame);
        break;
      case Kind::timed_seq:
        while (phase_ + 1 < phases_.size() && seconds >= phase_start_s_ + phase_seconds_[phase_]) {
          phase_start_s_ += phase_seconds_[phase_];
          ++phase_;
          phase_first_frame_ = frame;
        }
        last_ms_ = phases_[phase_].ms(frame - phase_first_frame_, seconds - phase_start_s_);
        break;
      case Kind::timed_spike: {
        const auto period = static_cast<std::int64_t>(std::floor(seconds / period_s_));
        last_ms_ = period > spikes_ ? peak_ : base_;
        if (period > spikes_) spikes_ = period;
        break;
      }
    }
    return last_ms_;
  }

  const std::string& spec() const { return spec_; }

 private:
  enum class Kind { frames, timed_seq, timed_spike };

  static pacer::LoadSpecError error(std::string_view spec, const std::string& what) {
    return pacer::LoadSpecError("load spec '" + std::string(spec) + "': " + what);
  }
  static std::string trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return std::string{s};
  }
  static std::vector<std::string> split(std::string_view s, char sep) {
    std::vector<std::string> out;
    for (std::size_t start = 0;;) {
      const std::size_t at = s.find(sep, start);
      out.push_back(trim(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start)));
      if (at == std::string_view::npos) return out;
      start = at + 1;
    }
  }
  /// The '*' of an "N*SPEC" item (before the spec's own ':'), or npos.
  static std::size_t count_star(const std::string& item) {
    const auto star = item.find('*'), colon = item.find(':');
    return star != std::string::npos && (colon == std::string::npos || star < colon) ? star : std::string::npos;
  }
  /// A seq body whose first count ends in 's' counts seconds.
  static bool is_timed_seq(std::string_view body) {
    const std::string first = split(body, ';').front();
    const auto star = count_star(first);
    return star != std::string::npos && trim(std::string_view{first}.substr(0, star)).ends_with('s');
  }
  static bool number(const std::string& text, double& out) {
    const auto v = pacer::parse_finite_decimal(text);
    out = v.value_or(0);
    return v.has_value();
  }
  static double parse_seconds(const std::string& text, std::string_view spec, const char* what) {
    double v = 0;
    if (!number(text, v) || v <= 0) throw error(spec, std::string(what) + " '" + text + "s' is not a positive number of seconds");
    // At most 10^6 s (11.6 days, --duration's limit): a phase or period longer than any run.
    if (v > 1e6) throw error(spec, std::string(what) + " " + text + "s is out of range (0, 1000000] seconds");
    return v;
  }
  static double milliseconds(const std::string& text, std::string_view spec, const char* what) {
    double v = 0;
    if (!number(text, v) || v < 0) throw error(spec, std::string(what) + " '" + text + "' is not a non-negative number");
    if (v > pacer::kMaxLoadValue) throw error(spec, std::string(what) + " " + text + " is out of range [0, 10000]");
    return v;
  }

  Kind kind_ = Kind::frames;
  std::string spec_ = "constant:0";
  pacer::LoadProfile profile_;           ///< frames: pacer's profile by frame index
  std::vector<TimedLoad> phases_;        ///< timed_seq: the phases, in order
  std::vector<double> phase_seconds_;    ///< their lengths (the last one's is unused: for ever)
  std::size_t phase_ = 0;                ///< the phase in force
  std::int64_t phase_first_frame_ = 0;   ///< its first frame
  double phase_start_s_ = 0;             ///< when it began (the sum of the lengths before it)
  double base_ = 0, peak_ = 0, period_s_ = 1;  ///< timed_spike
  std::int64_t spikes_ = 0;              ///< timed_spike: whole periods already spiked
  std::int64_t last_frame_ = -1;
  double last_ms_ = 0;
};

}  // namespace samples
