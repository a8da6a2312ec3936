// compare: the comparison suite (issue 11). Every workload x trace scale x display x policy
// in virtual time; judges adaptive against the best classic loop on five criteria, per
// half of the corpus (tuning, held-out), and writes docs/results.md with the command that
// produced it plus every run's metrics as CSV beside it.
//
//   compare --traces traces --out docs/results.md [--frames 3600] [--seed 7]
//           [--half all|tuning|held-out] [--only TEXT] [--no-synthetic] [--logs DIR]
//           [--other-seeds N] [--all-held-out]
//
// --half runs one half of the corpus (tune on `tuning`, never look at `held-out` while
// tuning); --only runs just the workloads whose name contains TEXT; --no-synthetic runs the
// traces of --traces alone (a folder of captures nobody has tuned on, judged by themselves);
// --all-held-out counts every trace of --traces as held out whatever its hash (a fresh set that
// nobody tunes on, traces/README.md "Fresh sets"); any of these writes nothing to --out
// unless it is given explicitly. --logs writes every
// run's native pacing log as DIR/WORKLOAD_xSCALE_DISPLAY_POLICY.csv for pacer-report.
// --other-seeds (0) reruns the suite with seeds 1..N and reports how many rows meet all five
// criteria on each (tune at several seeds: a constant chosen at one fits its draw).
//
// The split (written down before any tuning, traces/README.md): a workload is held out
// when the FNV-1a 64-bit hash of its name is odd. A trace's name is its file name
// (`capframex_judgment_gtx1070.csv`), a synthetic shape's is `NAME.synthetic`.
//
// Criteria per row (workload x scale x display), adaptive against the best of accumulator,
// accumulator-capped and flipcode, all with the same step cap (0.25 s of simulation per
// frame) and accumulator-capped capped at the display's refresh (fifo, vrr) or 60 Hz
// (immediate): anim p99 |animation error| <= max(0.1 ms, 0.5 x best); stutter count <=
// best; fps >= 0.9 x accumulator-capped; latency p50 (shown - frame start) <=
// accumulator-capped's + one period of that cap; dropped simulation time <= max(0.5% of
// the run, best). Under each half's table, every missing row with its reasons, read from
// the runs' records (bench/miss_reasons.hpp). Exit 0 whether or not every row meets them;
// 2 on a usage error; 1 when a trace cannot be read or an output written.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/cli.hpp"
#include "miss_reasons.hpp"
#include "pacer/load_profile.hpp"
#include "pacer/log_writer.hpp"
#include "pacer/os_sleep_model.hpp"
#include "pacer/policies.hpp"
#include "pacer/random.hpp"
#include "pacer/simulator.hpp"
#include "pacer/stats.hpp"

namespace {

using pacer::frame_draw;
using pacer::from_ms;
using pacer::Nanos;

/// FNV-1a, 64 bits, over the bytes of `text`: the corpus split.
std::uint64_t fnv1a64(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

bool held_out(const std::string& split_name) { return (fnv1a64(split_name) & 1U) != 0; }

struct Workload {
  std::string name;
  std::string split_name;  ///< what the split hashes
  std::string description;
  std::function<Nanos(std::int64_t)> render;  ///< render cost at trace scale 1
  bool held = false;
};

/// The synthetic shapes: each a kind of load real games show, at scale 1 (a trace scale
/// multiplies them as it multiplies a trace).
std::vector<Workload> synthetic(std::uint64_t seed, std::int64_t frames) {
  std::vector<Workload> w;
  const auto fraction = [frames](std::int64_t f) {
    return static_cast<double>(f) / static_cast<double>(std::max<std::int64_t>(frames, 1));
  };
  w.push_back({"level-change", "", "render 8 ms, from the middle of the run 24 ms",
               [frames](std::int64_t f) { return f < frames / 2 ? from_ms(8) : from_ms(24); }});
  w.push_back({"level-load", "", "render 10 ms; at 1/3 of the run a 400 ms loading frame then 22 ms; at 2/3 a 250 ms one then 14 ms",
               [frames](std::int64_t f) {
                 const std::int64_t a = frames / 3, b = 2 * frames / 3;
                 if (f == a) return from_ms(400);
                 if (f == b) return from_ms(250);
                 return f < a ? from_ms(10) : f < b ? from_ms(22) : from_ms(14);
               }});
  w.push_back({"periodic-hitch", "", "render 10 ms, every 150th frame 120 ms",
               [](std::int64_t f) { return f % 150 == 149 ? from_ms(120) : from_ms(10); }});
  w.push_back({"gc-hitch", "", "render 12 ms + 1 ms noise; every 200-300 frames a 40-70 ms collection, every third one twice within 4 frames",
               [seed](std::int64_t f) {
                 double ms = 12.0 + frame_draw(seed, f, 10);
                 const std::int64_t cycle = f / 250, at = f % 250;
                 const auto hitch_at = static_cast<std::int64_t>(200 + 40 * frame_draw(seed, cycle, 11));
                 if (at == hitch_at || (cycle % 3 == 2 && at == hitch_at + 3)) ms += 28.0 + 30.0 * frame_draw(seed, f, 12);
                 return from_ms(ms);
               }});
  w.push_back({"shader-storm", "", "render 9 ms; from 1/4 of the run for 90 frames a third of the frames compile shaders (+20-90 ms)",
               [seed, frames](std::int64_t f) {
                 double ms = 9.0 + 0.6 * frame_draw(seed, f, 20);
                 const std::int64_t start = frames / 4;
                 if (f >= start && f < start + 90 && frame_draw(seed, f, 21) < 0.33) ms += 20.0 + 70.0 * frame_draw(seed, f, 22);
                 return from_ms(ms);
               }});
  w.push_back({"straddle-144", "", "render uniform 9-15 ms: around a 144 Hz period at scale 0.5",
               [seed](std::int64_t f) { return from_ms(9.0 + 6.0 * frame_draw(seed, f, 1)); }});
  w.push_back({"edge-60", "", "render uniform 32.6-34.2 ms: around two 60 Hz periods at scale 1, one at scale 0.5",
               [seed](std::int64_t f) { return from_ms(32.6 + 1.6 * frame_draw(seed, f, 30)); }});
  w.push_back({"edge-144", "", "render uniform 13.2-14.6 ms: on a 144 Hz period at scale 0.5, two at scale 1",
               [seed](std::int64_t f) { return from_ms(13.2 + 1.4 * frame_draw(seed, f, 31)); }});
  w.push_back({"heavy-tail", "", "render 8 ms + 1 ms noise; 3% of frames 16-60 ms longer",
               [seed](std::int64_t f) {
                 double ms = 8.0 + frame_draw(seed, f, 2);
                 if (frame_draw(seed, f, 3) < 0.03) ms += 16.0 + 44.0 * frame_draw(seed, f, 4);
                 return from_ms(ms);
               }});
  w.push_back({"slow-drift", "", "render drifts 6 -> 26 -> 6 ms over the run",
               [fraction](std::int64_t f) {
                 const double x = fraction(f);
                 return from_ms(6.0 + 20.0 * (x < 0.5 ? 2 * x : 2 - 2 * x));
               }});
  w.push_back({"two-to-three-144", "", "render uniform 28-42 ms: 2-3 periods of 144 Hz at scale 0.5",
               [seed](std::int64_t f) { return from_ms(28.0 + 14.0 * frame_draw(seed, f, 40)); }});
  for (auto& x : w) {
    x.split_name = x.name + ".synthetic";
    x.held = held_out(x.split_name);
  }
  return w;
}

const std::vector<double> kScales{0.5, 1.0};
const std::vector<std::string> kDisplays{"fifo:60", "fifo:144", "vrr:48-144", "immediate"};
/// Judged against: the classic loops. Shown beside them: variable dt and the peers.
const std::vector<std::string> kBaselines{"accumulator", "accumulator-capped", "flipcode"};
const std::vector<std::string> kPeers{"swappy", "framepace"};

/// The policies this build knows, in table order.
std::vector<std::string> policies() {
  std::vector<std::string> out;
  for (const char* p : {"adaptive", "accumulator", "accumulator-capped", "flipcode", "variable", "swappy", "framepace"})
    if (pacer::is_policy_name(p)) out.emplace_back(p);
  return out;
}

struct Run {
  std::string policy;
  pacer::Summary s;
  fpbench::RunFacts facts;    ///< what its log says (bench/miss_reasons.hpp): the reasons of a miss
};

struct Row {
  const Workload* workload = nullptr;
  double scale = 1;
  std::string display;
  double period_ms = 0;  ///< the capped loop's target interval: one refresh period
  std::vector<Run> runs;
  const Run* find(const std::string& policy) const {
    for (const auto& r : runs)
      if (r.policy == policy) return &r;
    return nullptr;
  }
};

/// The five criteria for one row.
struct Verdict {
  double anim = 0, anim_limit = 0;
  std::int64_t stutters = 0, best_stutters = 0;
  const Run* best_stutter_run = nullptr;  ///< the baseline with best_stutters (the first of a tie)
  double fps = 0, fps_limit = 0;
  double latency = 0, latency_limit = 0;
  double dropped = 0, dropped_limit = 0;
  bool anim_ok = false, stutter_ok = false, fps_ok = false, latency_ok = false, dropped_ok = false;
  /// adaptive's p99 anim below every peer's (true when no peer ran)
  bool beats_peers = true;
  std::string peer_anims;  ///< "swappy 1.23, framepace 4.56"
  bool met() const { return anim_ok && stutter_ok && fps_ok && latency_ok && dropped_ok; }
  /// Each criterion by name, in table order, with whether it is met.
  std::array<std::pair<const char*, bool>, 5> criteria() const {
    return {{{"anim", anim_ok}, {"stutter", stutter_ok}, {"fps", fps_ok}, {"latency", latency_ok}, {"dropped", dropped_ok}}};
  }
  std::string misses() const {
    std::string m;
    for (const auto& [what, ok] : criteria()) {
      if (ok) continue;
      if (!m.empty()) m += ", ";
      m += what;
    }
    return m;
  }
};

Verdict judge(const Row& row) {
  Verdict v;
  const Run& a = *row.find("adaptive");
  const Run& capped = *row.find("accumulator-capped");
  double best_anim = 1e300, best_dropped = 1e300;
  std::int64_t best_stutters = INT64_MAX;
  for (const auto& b : kBaselines) {
    const Run& r = *row.find(b);
    best_anim = std::min(best_anim, r.s.anim_error_p99_ms);
    if (r.s.stutters < best_stutters) {
      best_stutters = r.s.stutters;
      v.best_stutter_run = &r;
    }
    best_dropped = std::min(best_dropped, r.s.dropped_ms);
  }
  v.anim = a.s.anim_error_p99_ms;
  v.anim_limit = std::max(0.1, 0.5 * best_anim);
  v.stutters = a.s.stutters;
  v.best_stutters = best_stutters;
  v.fps = a.s.average_fps;
  v.fps_limit = 0.9 * capped.s.average_fps;
  v.latency = a.s.latency_p50_ms;
  v.latency_limit = capped.s.latency_p50_ms + row.period_ms;
  v.dropped = a.s.dropped_ms;
  v.dropped_limit = std::max(0.005 * a.s.duration_ms, best_dropped);
  // A tolerance of a thousandth of a millisecond for values printed with three decimals.
  v.anim_ok = v.anim <= v.anim_limit + 1e-9;
  v.stutter_ok = v.stutters <= v.best_stutters;
  v.fps_ok = v.fps >= v.fps_limit;
  v.latency_ok = v.latency <= v.latency_limit + 1e-9;
  v.dropped_ok = v.dropped <= v.dropped_limit + 1e-9;
  for (const auto& p : kPeers) {
    if (const Run* r = row.find(p)) {
      if (!(v.anim < r->s.anim_error_p99_ms || (v.anim <= 1e-6 && r->s.anim_error_p99_ms <= 1e-6))) v.beats_peers = false;
      char part[64];
      std::snprintf(part, sizeof part, "%s%s %.3f", v.peer_anims.empty() ? "" : ", ", p.c_str(), r->s.anim_error_p99_ms);
      v.peer_anims += part;
    }
  }
  return v;
}

/// Why a row misses, criterion by criterion, in words, from the logs (adaptive's, and the
/// baselines' where the criterion compares with them).
std::string why(const Row& row, const Verdict& v) {
  const Run& a = *row.find("adaptive");
  const fpbench::RunFacts& f = a.facts;
  std::string out;
  char part[640];
  const auto add = [&out](const std::string& text) {
    if (!out.empty()) out += "; ";
    out += text;
  };
  if (!v.anim_ok) {
    std::snprintf(part, sizeof part, "**anim**: of the %lld frames at its p99 or over,", static_cast<long long>(f.top));
    std::string text = part;
    if (f.top_late > 0) {
      std::snprintf(part, sizeof part, " %lld shown later than the world they show (median %.2f ms)",
                    static_cast<long long>(f.top_late), f.top_late_median_ms);
      text += part;
    }
    if (f.top_ahead > 0) {
      std::snprintf(part, sizeof part, "%s %lld with the world ahead (lag caught up, or the frame after a late one; median %.2f ms)",
                    f.top_late > 0 ? " and" : "", static_cast<long long>(f.top_ahead), f.top_ahead_median_ms);
      text += part;
    }
    add(text);
  }
  if (!v.stutter_ok) {
    const Run* best = v.best_stutter_run;
    const auto own = fpbench::unmatched(f.stutters, best->facts.stutters);
    std::string list;
    for (std::size_t k = 0; k < own.size() && k < 4; ++k) {
      const std::size_t i = own[k];
      char one[160];
      std::snprintf(one, sizeof one, "%sframe %lld: %.1f ms gap, its render %.1f ms, waits %.1f ms", list.empty() ? "" : ", ",
                    static_cast<long long>(f.stutters[i]), f.stutter_gap_ms[i], f.stutter_render_ms[i], f.stutter_rest_ms[i]);
      list += one;
    }
    if (own.size() > 4) list += ", ...";
    std::snprintf(part, sizeof part, "**stutter**: %zu of its %zu with no stutter of %s's within 3 frames to pair with%s%s",
                  own.size(), f.stutters.size(), best->policy.c_str(), list.empty() ? "" : " (", list.empty() ? "" : (list + ")").c_str());
    add(part);
  }
  if (!v.fps_ok) {
    const fpbench::RunFacts& c = row.find("accumulator-capped")->facts;
    std::snprintf(part, sizeof part,
                  "**fps**: a frame every %.2f ms, of it %.2f ms busy and %.2f ms waiting (held presents, planned "
                  "starts), against accumulator-capped's %.2f ms (%.2f busy)",
                  f.interval_ms, f.busy_ms, f.wait_ms, c.interval_ms, c.busy_ms);
    add(part);
  }
  if (!v.latency_ok) {
    std::snprintf(part, sizeof part, "**latency**: frames start %.1f ms (p50) before they are shown, %.1f of its frame intervals",
                  v.latency, f.interval_ms > 0 ? v.latency / f.interval_ms : 0.0);
    add(part);
  }
  if (!v.dropped_ok) {
    std::snprintf(part, sizeof part, "**dropped**: in %lld frames, the largest drop %.1f ms", static_cast<long long>(f.drop_frames),
                  f.drop_max_ms);
    add(part);
  }
  return out;
}

std::string scale_text(double scale) {
  char s[16];
  std::snprintf(s, sizeof s, "x%.1f", scale);
  return s;
}

/// --adaptive NAME=VALUE: tuning knobs of AdaptiveConfig (pacer::set_knob; times in ms).
std::vector<std::pair<std::string, double>> g_knobs;

/// Runs every workload x scale x display x policy; writes each run's native log under
/// logs_dir when it is not empty. Returns false (after a one-line error) when a log cannot
/// be written.
bool run_suite(const std::vector<Workload>& workloads, std::uint64_t seed, std::int64_t frames,
               const std::string& logs_dir, std::vector<Row>& rows) {
  const Nanos step = from_ms(5);
  const Nanos update_cost = from_ms(0.5);
  pacer::StatsOptions stats;
  stats.warmup_frames = 60;
  const std::vector<std::string> names = policies();
  for (const auto& w : workloads) {
    for (const double scale : kScales) {
      for (const auto& d : kDisplays) {
        pacer::SimOptions sim;
        sim.display = *pacer::parse_display(d);
        sim.waiter = pacer::WaiterKind::precise;
        sim.seed = seed;
        Row row;
        row.workload = &w;
        row.scale = scale;
        row.display = d;
        // accumulator-capped's target: the refresh on fifo and vrr (its fastest), 60 Hz on immediate.
        const Nanos cap = sim.display.period > Nanos::zero() ? sim.display.period : Nanos{16'666'667};
        row.period_ms = pacer::to_ms(cap);
        for (const auto& p : names) {
          pacer::PolicyConfig cfg;
          cfg.sim.step = step;
          // The same step cap for every policy: 0.25 s of simulation per frame.
          cfg.sim.max_steps_per_frame = static_cast<int>(Nanos{250'000'000} / step);
          pacer::fit_to_display(cfg, sim.display);
          for (const auto& [name, value] : g_knobs) pacer::set_knob(cfg.adaptive, name, value);
          cfg.capped_interval = cap;
          auto pacer = pacer::create_pacer(p, cfg);
          const auto render = w.render;
          pacer::SimCosts costs{[render, scale](std::int64_t f) {
                                  return Nanos{static_cast<std::int64_t>(std::llround(static_cast<double>(render(f).count()) * scale))};
                                },
                                [update_cost](std::int64_t, std::int64_t) { return update_cost; }};
          const pacer::SimRun run = pacer::simulate(*pacer, costs, frames, sim);
          const pacer::Summary summary = pacer::summarize(run.records, stats);
          row.runs.push_back({p, summary,
                              fpbench::facts_of(run.records, stats.warmup_frames, summary)});
          if (logs_dir.empty()) continue;
          std::string display_name = d;
          std::replace(display_name.begin(), display_name.end(), ':', '-');
          const auto path =
              std::filesystem::path{logs_dir} / (w.name + "_" + scale_text(scale) + "_" + display_name + "_" + p + ".csv");
          std::ofstream file{path};
          pacer::NativeLogWriter log{file};
          for (const auto& r : run.records) log.write(r);
          if (!file.flush()) {
            std::fprintf(stderr, "compare: cannot write '%s'\n", path.string().c_str());
            return false;
          }
        }
        rows.push_back(std::move(row));
      }
    }
  }
  return true;
}

int usage(const std::string& why) { return fpcli::usage_error("compare", why); }

/// Per display x trace scale ("fifo:60 x0.5"), the rows of one half meeting all five
/// criteria and the rows.
std::map<std::string, std::pair<int, int>> cell_counts(const std::vector<Row>& rows, bool held) {
  std::map<std::string, std::pair<int, int>> cells;
  for (const auto& r : rows) {
    if (r.workload->held != held) continue;
    auto& c = cells[r.display + " " + scale_text(r.scale)];
    ++c.second;
    if (judge(r).met()) ++c.first;
  }
  return cells;
}

/// The held-out cells where fewer than 90% of the rows meet all five criteria, the goal's
/// per-cell reading, in the tables' order: "vrr:48-144 x1.0 (26 of 29)", or "none".
std::string held_cells_under_goal(const std::vector<Row>& rows) {
  const auto cells = cell_counts(rows, true);
  std::string out;
  for (const auto& d : kDisplays)
    for (const double scale : kScales)
      if (const auto it = cells.find(d + " " + scale_text(scale)); it != cells.end() && 10 * it->second.first < 9 * it->second.second)
        out += (out.empty() ? "" : ", ") + it->first + " (" + std::to_string(it->second.first) + " of " +
               std::to_string(it->second.second) + ")";
  return out.empty() ? "none" : out;
}

/// One seed's line of the other-seeds table.
struct SeedCounts {
  std::uint64_t seed;
  int held_met = 0, tuning_met = 0, held_peer_lower = 0;
  std::string cells_under_goal;
};

SeedCounts count_seed(std::uint64_t seed, const std::vector<Row>& rows) {
  SeedCounts c{seed, 0, 0, 0, held_cells_under_goal(rows)};
  for (const auto& r : rows) {
    const Verdict v = judge(r);
    if (!v.met()) continue;
    ++(r.workload->held ? c.held_met : c.tuning_met);
    if (r.workload->held && !v.beats_peers) ++c.held_peer_lower;
  }
  return c;
}

/// The tables of one half: counts per display x scale, every row, the misses with reasons.
void write_half(std::ostringstream& md, const char* title, const std::vector<Row>& rows, bool held) {
  std::vector<const Row*> mine;
  for (const auto& r : rows)
    if (r.workload->held == held) mine.push_back(&r);
  std::set<std::string> names;
  for (const Row* r : mine) names.insert(r->workload->name);
  int met = 0, beat = 0;
  auto by_cell = cell_counts(rows, held);  // "display xS" -> met, total
  std::map<std::string, int> miss_by_criterion;
  for (const Row* r : mine) {
    const Verdict v = judge(*r);
    if (v.met()) {
      ++met;
      if (v.beats_peers) ++beat;
    }
    for (const auto& [c, ok] : v.criteria())
      if (!ok) ++miss_by_criterion[c];
  }
  const int total = static_cast<int>(mine.size());
  if (total == 0) return;  // a half this run has none of (--half, --all-held-out)
  md << "\n## " << title << "\n\n" << names.size() << " workloads x " << kScales.size() << " trace scales x "
     << kDisplays.size() << " displays = " << total << " rows.\n\n";
  char line[1024];
  std::snprintf(line, sizeof line, "**%d of %d rows (%.0f%%) meet all five criteria.**", met, total,
                total > 0 ? 100.0 * met / total : 0.0);
  md << line;
  if (!kPeers.empty() && pacer::is_policy_name(kPeers.front()))
    md << " Adaptive's p99 animation error is below both peers' on " << beat << " of the " << met << " rows it meets.";
  md << "\n\nMisses by criterion (a row may miss several):";
  for (const char* c : {"anim", "stutter", "fps", "latency", "dropped"}) md << " " << c << " " << miss_by_criterion[c] << ";";
  md << "\n\n| display | ";
  for (const double s : kScales) md << scale_text(s) << " | ";
  md << "\n|---|";
  for (std::size_t i = 0; i < kScales.size(); ++i) md << "---|";
  md << "\n";
  for (const auto& d : kDisplays) {
    md << "| " << d << " | ";
    for (const double s : kScales) {
      const auto& c = by_cell[d + " " + scale_text(s)];
      md << c.first << " of " << c.second << " | ";
    }
    md << "\n";
  }
  md << "\n| workload | scale | display | p99 anim ms (limit) | stutters (best) | fps (limit) | latency p50 ms (limit) | "
        "dropped ms (limit) | peers' p99 anim ms | misses |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Row* r : mine) {
    const Verdict v = judge(*r);
    auto mark = [](bool ok) { return ok ? "" : " ✗"; };
    std::string misses = v.met() ? "-" : v.misses();
    if (v.met() && !v.beats_peers) misses = "(a peer's anim is lower)";
    std::snprintf(line, sizeof line, "| %s | %s | %s | %.3f (%.3f)%s | %lld (%lld)%s | %.1f (%.1f)%s | %.1f (%.1f)%s | %.1f (%.1f)%s | %s | %s |\n",
                  r->workload->name.c_str(), scale_text(r->scale).c_str(), r->display.c_str(), v.anim, v.anim_limit,
                  mark(v.anim_ok), static_cast<long long>(v.stutters), static_cast<long long>(v.best_stutters),
                  mark(v.stutter_ok), v.fps, v.fps_limit, mark(v.fps_ok), v.latency, v.latency_limit, mark(v.latency_ok),
                  v.dropped, v.dropped_limit, mark(v.dropped_ok), v.peer_anims.empty() ? "-" : v.peer_anims.c_str(),
                  misses.c_str());
    md << line;
  }
  md << "\n### Why each missing row misses\n\nRead from the runs' logs by `bench/miss_reasons.hpp` (frames after the "
        "warm-up): for **anim**, the frames whose |animation error| is at the p99 or over, split by sign; for "
        "**stutter**, adaptive's stutters left when each of the best baseline's pairs with one of them within 3 "
        "frames, each with its gap, the render of the frame that ends it and the rest of the gap besides that render "
        "and the updates before it (\"waits\": waits, held presents, the display's delay); for **fps**, "
        "where a frame's time goes; for **dropped**, the frames that dropped time.\n\n";
  int listed = 0;
  for (const Row* r : mine) {
    const Verdict v = judge(*r);
    if (v.met()) continue;
    ++listed;
    md << "- " << r->workload->name << " " << scale_text(r->scale) << " " << r->display << ": " << why(*r, v) << ".\n";
  }
  if (listed == 0) md << "None.\n";
}

/// Median over rows of each policy's metrics, per display: the peers beside the classic loops.
void write_policies(std::ostringstream& md, const std::vector<Row>& rows, bool held) {
  md << "\n## Every policy, held-out half\n\nMedians over the held-out rows of each display (both scales).\n\n"
     << "| display | policy | fps | p99 anim ms | stutters | latency p50 ms | dropped ms |\n|---|---|---|---|---|---|---|\n";
  for (const auto& d : kDisplays) {
    for (const auto& p : policies()) {
      std::vector<double> fps, anim, stut, lat, drop;
      for (const auto& r : rows) {
        if (r.workload->held != held || r.display != d) continue;
        const Run* run = r.find(p);
        fps.push_back(run->s.average_fps);
        anim.push_back(run->s.anim_error_p99_ms);
        stut.push_back(static_cast<double>(run->s.stutters));
        lat.push_back(run->s.latency_p50_ms);
        drop.push_back(run->s.dropped_ms);
      }
      if (fps.empty()) continue;
      char line[256];
      std::snprintf(line, sizeof line, "| %s | %s | %.1f | %.3f | %.0f | %.1f | %.1f |\n", d.c_str(), p.c_str(),
                    pacer::percentile(fps, 50), pacer::percentile(anim, 50), pacer::percentile(stut, 50),
                    pacer::percentile(lat, 50), pacer::percentile(drop, 50));
      md << line;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string traces_dir = "traces", out_path = "docs/results.md", only, logs_dir, half = "all";
  bool out_given = false;
  bool no_synthetic = false;
  bool all_held_out = false;
  std::int64_t frames = 3600;
  std::uint64_t seed = 7;
  std::uint64_t other_seeds = 0;
  std::string knobs_given;
  {
    // The flag table (CLI11, engine/cli.hpp): --help and --version exit 0, a usage error is
    // one line, exit 2.
    CLI::App app{"The comparison suite: every workload x scale x display x policy in virtual time; writes docs/results.md.",
                 "compare"};
    fpcli::setup(app, FP_VERSION);
    app.add_option("--traces", traces_dir, "folder of CSV traces (default traces)")
        ->type_name("DIR")
        ->check(CLI::Validator(
            [](std::string& dir) -> std::string {
              std::error_code ec;
              if (dir.empty()) return "the folder name is empty";
              if (!std::filesystem::is_directory(dir, ec)) return "'" + fpcli::printable(dir) + "' is not a folder";
              return "";
            },
            ""));
    app.add_option("--out", out_path, "write the results here (default docs/results.md; the runs' CSV beside it)")
        ->type_name("FILE")->check(fpcli::file_name());
    app.add_option("--half", half, "which half of the corpus: all (default), tuning or held-out")
        ->type_name("HALF")->check(CLI::IsMember({"all", "tuning", "held-out"}));
    app.add_option("--only", only, "run just the workloads whose name contains TEXT")->type_name("TEXT");
    app.add_flag("--no-synthetic", no_synthetic, "run the traces of --traces alone, without the synthetic shapes");
    app.add_flag("--all-held-out", all_held_out,
                 "count every trace of --traces as held out, whatever its hash (a fresh set nobody tunes on)");
    app.add_option("--logs", logs_dir, "write every run's native pacing log as DIR/WORKLOAD_xSCALE_DISPLAY_POLICY.csv")
        ->type_name("DIR")->check(fpcli::file_name());
    app.add_option("--frames", frames, "frames per run (default 3600)")->type_name("N")->transform(fpcli::whole(200, 1'000'000));
    app.add_option("--seed", seed, "seed of the synthetic workloads and the waiter (default 7)")
        ->type_name("N")->transform(fpcli::whole(0, fpcli::max_seed));
    app.add_option("--other-seeds", other_seeds, "rerun the suite with seeds 1..N (default 0: none)")
        ->type_name("N")->transform(fpcli::whole(0, 1000));
    std::vector<std::string> knobs;
    fpcli::add_adaptive_flag(app, knobs);
    if (const int code = fpcli::parse(app, argc, argv); code >= 0) return code;
    pacer::AdaptiveConfig probe;  // the knobs together, checked as the policy will check them
    for (const auto& k : knobs) {
      std::pair<std::string, double> knob;
      if (const std::string why = fpcli::parse_knob(k, knob); !why.empty()) return usage("--adaptive: " + why);
      pacer::set_knob(probe, knob.first, knob.second);
      g_knobs.push_back(knob);
      knobs_given += ' ' + k;  // as given, for the page's command
    }
    try {
      pacer::validate(probe);
    } catch (const std::invalid_argument& e) {
      return usage(std::string{"--adaptive: "} + e.what());
    }
    out_given = app.count("--out") > 0;
  }

  {
    std::error_code ec;
    if (!std::filesystem::is_directory(traces_dir, ec))  // the default is not checked by the flag
      return usage("--traces: '" + fpcli::printable(traces_dir) + "' is not a folder (run from the repository root, or give --traces DIR)");
  }
  std::vector<Workload> traces;
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(traces_dir))
    if (e.path().extension() == ".csv") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  const pacer::TraceOpener open_file = pacer::trace_file_opener();
  for (const auto& file : files) {
    // The trace load profile pacer-sim and the samples use: frame_ms, on a loop.
    pacer::LoadProfile costs;
    try {
      costs = pacer::LoadProfile::parse("trace:" + file + ",loop", open_file);
    } catch (const pacer::LoadSpecError& e) {
      std::fprintf(stderr, "compare: %s\n", e.what());
      return 2;  // a bad input, as pacer-sim and the samples say it
    }
    const std::filesystem::path p{file};
    Workload w{p.stem().string(), p.filename().string(), "trace", [costs](std::int64_t f) { return costs.at(f); }};
    w.held = all_held_out || held_out(w.split_name);
    traces.push_back(std::move(w));
  }
  // The traces, then (unless --no-synthetic) the synthetic shapes drawn with `with_seed`;
  // --half and --only filter.
  auto workloads_for = [&](std::uint64_t with_seed) {
    std::vector<Workload> all = traces;
    if (!no_synthetic)
      for (auto& w : synthetic(with_seed, frames)) all.push_back(std::move(w));
    std::erase_if(all, [&](const Workload& w) {
      return (!only.empty() && w.name.find(only) == std::string::npos) || (half == "tuning" && w.held) ||
             (half == "held-out" && !w.held);
    });
    return all;
  };
  // The page and its CSV are written after the whole suite: refuse what cannot be written now.
  const bool partial = !only.empty() || half != "all" || !g_knobs.empty() || no_synthetic || all_held_out;
  const std::string csv_path = std::filesystem::path(out_path).replace_extension(".csv").string();
  if (out_given || !partial) {
    if (fpcli::same_file(out_path, csv_path))
      return usage("--out: '" + fpcli::printable(out_path) + "' would be its own CSV (the runs' CSV is written beside it as NAME.csv): give a .md name");
    for (const auto& file : files)
      if (fpcli::same_file(csv_path, file))
        return usage("--out: its CSV '" + fpcli::printable(csv_path) + "' is an input trace of --traces");
    for (const std::string& path : {out_path, csv_path}) {
      std::error_code ec;
      const bool existed = std::filesystem::exists(path, ec);
      if (existed && !std::filesystem::is_regular_file(path, ec))
        return usage("--out: '" + fpcli::printable(path) + "' is not a regular file");
      errno = 0;
      std::ofstream probe{path, std::ios::out | std::ios::app};  // creates, never truncates
      if (!probe) {
        std::fprintf(stderr, "compare: cannot write '%s': %s\n", path.c_str(), std::strerror(errno != 0 ? errno : EIO));
        return 1;
      }
      probe.close();
      if (!existed) std::filesystem::remove(path, ec);
    }
  }
  const std::vector<Workload> main_workloads = workloads_for(seed);
  if (main_workloads.empty())
    return usage(no_synthetic && only.empty() && half == "all"
                     ? "no trace in '" + fpcli::printable(traces_dir) + "' (and --no-synthetic)"
                     : "no workload matches" + (only.empty() ? std::string{} : " --only " + only) + " in --half " + half +
                           (no_synthetic ? " with --no-synthetic" : ""));
  if (!logs_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(logs_dir, ec);
    if (ec) {
      std::fprintf(stderr, "compare: cannot create '%s': %s\n", logs_dir.c_str(), ec.message().c_str());
      return 1;
    }
  }

  std::vector<Row> rows;
  if (!run_suite(main_workloads, seed, frames, logs_dir, rows)) return 1;

  // The console: one line per row, then the counts.
  int counts[2][2] = {{0, 0}, {0, 0}};  // [held][met]
  for (const auto& r : rows) {
    const Verdict v = judge(r);
    ++counts[r.workload->held ? 1 : 0][v.met() ? 1 : 0];
    std::printf("%-8s %-44s %-4s %-10s anim %7.3f/%7.3f stut %3lld/%3lld fps %6.1f/%6.1f lat %5.1f/%5.1f drop %7.1f/%7.1f %s%s\n",
                r.workload->held ? "held" : "tuning", r.workload->name.c_str(), scale_text(r.scale).c_str(),
                r.display.c_str(), v.anim, v.anim_limit, static_cast<long long>(v.stutters),
                static_cast<long long>(v.best_stutters), v.fps, v.fps_limit, v.latency, v.latency_limit, v.dropped,
                v.dropped_limit, v.met() ? "ok" : ("MISS " + v.misses()).c_str(),
                v.met() && !v.beats_peers ? " (peer anim lower)" : "");
  }
  for (int h = 0; h < 2; ++h) {
    const int total = counts[h][0] + counts[h][1];
    if (total > 0) std::printf("%s: %d of %d rows meet all five criteria\n", h ? "held-out" : "tuning", counts[h][1], total);
  }

  // The same suite on other seeds (waiter wake errors and the synthetic shapes' draws change).
  std::vector<SeedCounts> met_by_seed;
  for (std::uint64_t other = 1; other <= other_seeds; ++other) {
    std::vector<Row> other_rows;
    // Kept alive while the rows are read: each row points at its workload.
    const std::vector<Workload> other_workloads = workloads_for(other);
    if (!run_suite(other_workloads, other, frames, "", other_rows)) return 1;
    SeedCounts c = count_seed(other, other_rows);
    std::printf("seed %llu: held-out %d, tuning %d rows meet all five; held-out cells under 90%%: %s\n",
                static_cast<unsigned long long>(other), c.held_met, c.tuning_met, c.cells_under_goal.c_str());
    met_by_seed.push_back(std::move(c));
  }
  if (partial && !out_given) return 0;  // a partial suite does not replace the results

  std::ostringstream md;
  std::size_t held_workloads = 0;
  for (const auto& w : main_workloads) held_workloads += w.held ? 1 : 0;
  md << "# Results: adaptive against the classic loops and two peers, in virtual time\n\n"
     << "Produced by `bench/compare` (source `bench/compare.cpp`), from the repository root:\n\n"
     << "```\nbuild/bench/compare --traces " << traces_dir << " --out " << out_path << " --frames " << frames << " --seed "
     << seed;
  if (half != "all") md << " --half " << half;
  if (!only.empty()) md << " --only " << only;
  if (no_synthetic) md << " --no-synthetic";
  if (all_held_out) md << " --all-held-out";
  if (other_seeds > 0) md << " --other-seeds " << other_seeds;
  if (!knobs_given.empty()) md << " --adaptive" << knobs_given;
  md << "\n```\n\n"
     << "Every run is " << frames << " frames; metrics skip a 60-frame warm-up (definitions: docs/log-format.md). "
     << "Fixed step 5 ms with a cap of 0.25 s of simulation per frame for every policy, update 0.5 ms per step, "
        "the precise waiter (seeded wake errors), 3 swapchain images. A trace's `frame_ms` column, multiplied by the "
        "trace scale, is each frame's render cost, repeated when shorter than the run; the synthetic shapes are "
        "scaled the same way. Every run's metrics are in `"
     << std::filesystem::path(out_path).replace_extension(".csv").filename().string() << "` beside this file.\n\n"
     << "**The split** (fixed before any tuning; traces/README.md): a workload is *held out* when the FNV-1a "
        "64-bit hash of its name is odd, *tuning* when even. A trace's name is its file name "
        "(`capframex_judgment_gtx1070.csv`), a synthetic shape's is `NAME.synthetic`. Constants are chosen on the "
        "tuning half only (`--half tuning`). This run: "
     << held_workloads << " held-out and " << main_workloads.size() - held_workloads << " tuning workloads"
     << (all_held_out ? " (`--all-held-out`: every trace of the folder counts as held out, whatever its hash: a fresh "
                        "set that nobody tunes on)"
                      : "")
     << ".\n\n"
     << "**Criteria** per row (workload x trace scale x display), adaptive against the best of accumulator, "
        "accumulator-capped and flipcode; accumulator-capped is capped at the display's refresh on fifo and vrr "
        "(its fastest) and at 60 Hz on immediate:\n\n"
        "1. **anim**: p99 |animation error| <= max(0.1 ms, 0.5 x the best baseline's);\n"
        "2. **stutter**: number of stutters (CapFrameX's rule: an interval over 2.5 x the average of the 20 "
        "before it, read at the microsecond) <= the best baseline's;\n"
        "3. **fps**: >= 0.9 x accumulator-capped's;\n"
        "4. **latency**: p50 of (shown - frame start) <= accumulator-capped's + one period of its cap;\n"
        "5. **dropped**: simulation time dropped <= max(0.5% of the run, the best baseline's).\n\n"
     << "In the tables each value is followed by its limit in brackets, and ✗ marks a miss. \"peers' p99 anim\" is "
        "the p99 |animation error| of `swappy` (Android Frame Pacing's rules) and `framepace` (bevy_framepace's "
        "limiter); the goal asks adaptive to be below both on every row where it meets its criteria. Under each "
        "half's table, every missing row with its reasons, read from the runs' logs.\n\n";
  if (!no_synthetic) md << "Synthetic shapes (at scale 1):\n\n";
  for (const auto& w : main_workloads)
    if (w.description != "trace") md << "- `" << w.name << "` (" << (w.held ? "held-out" : "tuning") << "): " << w.description << "\n";

  write_half(md, "Held-out half", rows, true);
  write_half(md, "Tuning half", rows, false);
  write_policies(md, rows, true);
  if (!met_by_seed.empty()) {
    md << "\n## Other seeds\n\nThe same suite with seeds 1 to " << other_seeds
       << " (the waiter's wake errors and the synthetic shapes' draws change; the traces do not).\n\n"
       << "| seed | held-out rows meeting all five | held-out cells under 90% (display, scale) | held-out rows met "
          "with a peer's p99 anim lower | tuning rows meeting all five |\n|---|---|---|---|---|\n";
    met_by_seed.insert(met_by_seed.begin(), count_seed(seed, rows));
    for (std::size_t i = 0; i < met_by_seed.size(); ++i) {
      const SeedCounts& c = met_by_seed[i];
      md << "| " << c.seed << (i == 0 ? " (above)" : "") << " | " << c.held_met << " | " << c.cells_under_goal << " | " << c.held_peer_lower << " | "
         << c.tuning_met << " |\n";
    }
  }

  // Every run's metrics, as CSV beside the page.
  {
    std::ofstream csv{csv_path, std::ios::out | std::ios::trunc};
    csv << "workload,half,scale,display,policy,avg_fps,anim_p99_ms,anim_max_ms,stutters,stutter_time_pct,"
           "interval_p99_ms,latency_p50_ms,dropped_ms,interval_changes_per_min\n";
    for (const auto& r : rows) {
      for (const auto& run : r.runs) {
        char line[512];
        std::snprintf(line, sizeof line, "%s,%s,%.1f,%s,%s,%.3f,%.4f,%.4f,%lld,%.3f,%.4f,%.3f,%.3f,%.2f\n",
                      r.workload->name.c_str(), r.workload->held ? "held-out" : "tuning", r.scale, r.display.c_str(),
                      run.policy.c_str(), run.s.average_fps, run.s.anim_error_p99_ms, run.s.anim_error_max_ms,
                      static_cast<long long>(run.s.stutters), run.s.stutter_time_pct, run.s.interval_p99_ms,
                      run.s.latency_p50_ms, run.s.dropped_ms, run.s.interval_changes_per_min);
        csv << line;
      }
    }
    if (!csv.flush()) {
      std::fprintf(stderr, "compare: cannot write '%s': %s\n", csv_path.c_str(), std::strerror(errno != 0 ? errno : EIO));
      return 1;
    }
  }
  // The hand-written sections (the reading of the misses, the real loop measured by
  // bench/real_loop.sh) follow the generated tables: a rerun keeps everything from the
  // marker on (or, in an older page, from the real loop's heading on).
  {
    std::ifstream previous{out_path};
    std::ostringstream text;
    text << previous.rdbuf();
    const std::string before = text.str();
    const std::string marker = "\n<!-- hand-written from here on: bench/compare keeps it -->";
    if (const auto at = before.find(marker); at != std::string::npos) md << before.substr(at);
    else if (const auto real = before.find("\n## Real loop"); real != std::string::npos) md << marker << "\n" << before.substr(real);
  }
  std::ofstream out{out_path, std::ios::out | std::ios::trunc};
  if (!out || !(out << md.str()) || !out.flush()) {
    std::fprintf(stderr, "compare: cannot write '%s': %s\n", out_path.c_str(), std::strerror(errno != 0 ? errno : EIO));
    return 1;
  }
  std::printf("wrote %s and %s\n", out_path.c_str(), csv_path.c_str());
  return 0;
}
