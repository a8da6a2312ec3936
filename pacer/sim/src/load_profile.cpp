#include "pacer/load_profile.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "pacer/decimal.hpp"
#include "pacer/random.hpp"

namespace pacer {

struct LoadProfile::Node {
  enum class Kind { constant, step, spike, ramp, sine, walk, trace, seq } kind = Kind::constant;
  double a = 0, b = 0;
  std::int64_t n = 1;
  std::uint64_t seed = 1;
  std::vector<double> values;  ///< trace samples
  bool loop = false;
  std::vector<std::pair<std::int64_t, std::shared_ptr<const Node>>> parts;  ///< seq: (frames, node)
  mutable std::mutex walk_mutex;
  mutable std::vector<double> walk;  ///< the walk's path so far (extended on demand)

  double at(std::int64_t f) const;
};

namespace {

/// The one-line error of a malformed spec: "load spec 'SPEC': WHAT".
LoadSpecError spec_error(std::string_view spec, const std::string& what) {
  return LoadSpecError("load spec '" + std::string(spec) + "': " + what);
}

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string{s};
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = s.find(sep, start);
    out.push_back(trim(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start)));
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  return out;
}

bool to_number(const std::string& text, double& out) {
  const auto v = parse_finite_decimal(text);
  if (!v) return false;
  out = *v;
  return true;
}

std::string max_text() { return format_general(kMaxLoadValue, 6); }

double number(const std::string& text, std::string_view spec, std::string_view what) {
  double v = 0;
  if (!to_number(text, v) || v < 0)
    throw spec_error(spec, std::string(what) + " '" + text + "' is not a non-negative number");
  if (v > kMaxLoadValue) throw spec_error(spec, std::string(what) + " " + text + " is out of range [0, " + max_text() + "]");
  return v;
}

std::int64_t count(const std::string& text, std::string_view spec, std::string_view what) {
  double v = 0;
  if (!to_number(text, v) || v < 0)
    throw spec_error(spec, std::string(what) + " '" + text + "' is not a positive whole number");
  if (v < 1 || v != std::floor(v))
    throw spec_error(spec, std::string(what) + " '" + text + "' is not a positive whole number");
  if (v > 1e12) throw spec_error(spec, std::string(what) + " " + text + " is out of range [1, 10^12]");
  return static_cast<std::int64_t>(v);
}

/// "A,B<sep>N" -> {A, B, N}; `form` and the three names word the errors.
void pair_then_count(const std::string& body, std::string_view spec, char sep, const char* form,
                     const std::array<const char*, 3>& names, double& a, double& b, std::int64_t& n) {
  const auto at = body.find(sep);
  const auto ab = split(std::string_view{body}.substr(0, at), ',');
  if (at == std::string::npos || ab.size() != 2) throw spec_error(spec, std::string("expected ") + form);
  a = number(ab[0], spec, names[0]);
  b = number(ab[1], spec, names[1]);
  n = count(body.substr(at + 1), spec, names[2]);
}

/// "A,B@F": step and ramp.
void pair_at(const std::string& body, std::string_view spec, double& a, double& b, std::int64_t& f) {
  pair_then_count(body, spec, '@', "A,B@FRAME", {"A", "B", "FRAME"}, a, b, f);
}

/// "A,B/N": spike and sine.
void pair_per(const std::string& body, std::string_view spec, double& a, double& b, std::int64_t& n) {
  pair_then_count(body, spec, '/', "A,B/N", {"first value", "second value", "period"}, a, b, n);
}

std::shared_ptr<const LoadProfile::Node> parse_node(std::string_view spec, const TraceOpener& open);

}  // namespace

double LoadProfile::Node::at(std::int64_t f) const {
  f = std::max<std::int64_t>(f, 0);
  switch (kind) {
    case Kind::constant: return a;
    case Kind::step: return f < n ? a : b;
    case Kind::spike: return (f + 1) % n == 0 ? b : a;
    case Kind::ramp: return f >= n ? b : a + (b - a) * static_cast<double>(f) / static_cast<double>(n);
    case Kind::sine:
      return std::max(0.0, a + b * std::sin(2.0 * 3.14159265358979323846 * static_cast<double>(f) / static_cast<double>(n)));
    case Kind::walk: {
      std::lock_guard lock{walk_mutex};
      SplitMix64 rng{seed + walk.size() * 0x9e3779b97f4a7c15ULL};
      while (static_cast<std::int64_t>(walk.size()) <= f) {
        const double prev = walk.empty() ? a : walk.back();
        const double u = rng.unit();
        // A step of +-b, pulled a tenth of the way back to the mean so it never wanders off.
        walk.push_back(std::max(0.0, prev + b * (2.0 * u - 1.0) + 0.1 * (a - prev)));
      }
      return walk[static_cast<std::size_t>(f)];
    }
    case Kind::trace: {
      const auto size = static_cast<std::int64_t>(values.size());
      if (loop) return values[static_cast<std::size_t>(f % size)];
      return values[static_cast<std::size_t>(std::min(f, size - 1))];
    }
    case Kind::seq:
      for (const auto& [frames, node] : parts) {
        if (frames <= 0 || f < frames) return node->at(f);
        f -= frames;
      }
      return parts.back().second->at(f);
  }
  return 0;
}

std::vector<double> read_trace_column(std::istream& in, std::string_view name, std::string_view column) {
  const std::string file{name};
  auto at = [&file](std::size_t line) { return file + ":" + std::to_string(line) + ": "; };
  auto binary = [](const std::string& line) {
    return std::any_of(line.begin(), line.end(), [](char c) {
      const auto u = static_cast<unsigned char>(c);
      return u == 0 || (u < 0x20 && c != '\t' && c != '\r');
    });
  };
  std::string line;
  if (!std::getline(in, line)) throw LoadSpecError(file + ":1: empty trace (no header line)");
  if (line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a UTF-8 byte order mark
  if (binary(line)) throw LoadSpecError(at(1) + "binary content (a control byte), not a CSV trace");
  const auto header = split(line, ',');
  const auto it = std::find(header.begin(), header.end(), column);
  if (it == header.end())
    throw LoadSpecError(at(1) + "no column '" + std::string(column) + "' in the header");
  const auto col = static_cast<std::size_t>(it - header.begin());
  std::vector<double> values;
  for (std::size_t number_of_line = 2; std::getline(in, line); ++number_of_line) {
    if (binary(line)) throw LoadSpecError(at(number_of_line) + "binary content (a control byte), not a CSV trace");
    if (trim(line).empty()) continue;
    const auto cells = split(line, ',');
    double v = 0;
    if (col >= cells.size()) throw LoadSpecError(at(number_of_line) + "no value in column " + std::string(column));
    const std::string shown = cells[col].size() > 40 ? cells[col].substr(0, 40) + "..." : cells[col];
    if (!to_number(cells[col], v) || v < 0)
      throw LoadSpecError(at(number_of_line) + "'" + shown + "' is not a number in column " + std::string(column));
    if (v > kMaxLoadValue)
      throw LoadSpecError(at(number_of_line) + shown + " is out of range [0, " + max_text() + "] in column " +
                          std::string(column));
    values.push_back(v);
  }
  if (values.empty()) throw LoadSpecError(file + ": no samples in column " + std::string(column));
  return values;
}

TraceOpener trace_file_opener(std::vector<std::string> search_dirs) {
  return [dirs = std::move(search_dirs)](const std::string& path) -> std::unique_ptr<std::istream> {
    namespace fs = std::filesystem;
    std::vector<std::string> candidates{path};
    if (!path.empty() && fs::path(path).is_relative())
      for (const auto& d : dirs) candidates.push_back((fs::path(d) / path).string());
    std::string first_error;
    for (const auto& candidate : candidates) {
      std::error_code ec;
      const auto status = fs::status(candidate, ec);
      if (ec || !fs::exists(status)) {
        if (first_error.empty()) first_error = std::generic_category().message(ENOENT);
        continue;
      }
      if (fs::is_directory(status)) throw LoadSpecError("trace '" + path + "': is a directory, not a file");
      if (!fs::is_regular_file(status)) throw LoadSpecError("trace '" + path + "': not a regular file");
      const auto size = fs::file_size(candidate, ec);
      if (ec) throw LoadSpecError("trace '" + path + "': " + ec.message());
      if (size > kMaxTraceBytes)
        throw LoadSpecError("trace '" + path + "': " + std::to_string(size) + " bytes, more than the " +
                            std::to_string(kMaxTraceBytes >> 20) + " MiB a trace may have");
      std::ifstream file{candidate, std::ios::binary};
      if (!file) throw LoadSpecError("trace '" + path + "': " + std::generic_category().message(errno));
      // Read at most the cap (the file may grow while we read).
      std::string bytes(static_cast<std::size_t>(size), '\0');
      file.read(bytes.data(), static_cast<std::streamsize>(size));
      bytes.resize(static_cast<std::size_t>(file.gcount()));
      if (file.bad()) throw LoadSpecError("trace '" + path + "': read error");
      return std::make_unique<std::istringstream>(std::move(bytes));
    }
    throw LoadSpecError("trace '" + path + "': " + first_error);
  };
}

namespace {

std::shared_ptr<const LoadProfile::Node> parse_node(std::string_view spec, const TraceOpener& open) {
  using Kind = LoadProfile::Node::Kind;
  auto node = std::make_shared<LoadProfile::Node>();
  const auto colon = spec.find(':');
  if (colon == std::string_view::npos)
    throw spec_error(spec, "expected KIND:ARGS (constant, step, spike, ramp, sine, walk, trace, seq)");
  const std::string kind = trim(spec.substr(0, colon));
  const std::string body = trim(spec.substr(colon + 1));
  if (kind == "constant") {
    node->kind = Kind::constant;
    node->a = number(body, spec, "value");
  } else if (kind == "step" || kind == "ramp") {
    node->kind = kind == "step" ? Kind::step : Kind::ramp;
    pair_at(body, spec, node->a, node->b, node->n);
  } else if (kind == "spike" || kind == "sine") {
    node->kind = kind == "spike" ? Kind::spike : Kind::sine;
    pair_per(body, spec, node->a, node->b, node->n);
  } else if (kind == "walk") {
    node->kind = Kind::walk;
    const auto args = split(body, ',');
    if (args.size() < 2 || args.size() > 3) throw spec_error(spec, "expected walk:MEAN,STEP[,seed=N]");
    node->a = number(args[0], spec, "MEAN");
    node->b = number(args[1], spec, "STEP");
    if (args.size() == 3) {
      if (args[2].rfind("seed=", 0) != 0) throw spec_error(spec, "expected seed=N");
      node->seed = static_cast<std::uint64_t>(count(args[2].substr(5), spec, "seed"));
    }
  } else if (kind == "trace") {
    node->kind = Kind::trace;
    // The file name is everything up to the trailing options: "trace:a,b.csv,loop" reads
    // "a,b.csv" (a name may hold commas; its last part must not look like an option).
    auto args = split(body, ',');
    std::string column = "frame_ms";
    double scale = 1.0;
    while (args.size() > 1) {
      const std::string& last = args.back();
      if (last.rfind("col=", 0) == 0) column = last.substr(4);
      else if (last.rfind("scale=", 0) == 0) scale = number(last.substr(6), spec, "scale");
      else if (last == "loop") node->loop = true;
      else break;
      args.pop_back();
    }
    std::string file = args[0];
    for (std::size_t i = 1; i < args.size(); ++i) file += "," + args[i];
    if (file.empty()) throw spec_error(spec, "expected trace:FILE[,col=NAME][,scale=K][,loop]");
    auto in = open ? open(file) : nullptr;
    if (!in || !*in) throw spec_error(spec, "cannot read trace '" + file + "'");
    node->values = read_trace_column(*in, file, column);
    for (double& v : node->values) {
      v *= scale;
      if (v > kMaxLoadValue) {
        throw spec_error(spec, "scale=" + format_general(scale, 6) + " makes a sample " + format_general(v, 6) +
                                   ", more than " + max_text());
      }
    }
  } else if (kind == "seq") {
    node->kind = Kind::seq;
    const auto items = split(body, ';');
    for (std::size_t i = 0; i < items.size(); ++i) {
      const std::string& item = items[i];
      const auto star = item.find('*');
      const auto item_colon = item.find(':');
      std::int64_t frames = 0;  // 0: for ever (the last item)
      std::string sub = item;
      if (star != std::string::npos && (item_colon == std::string::npos || star < item_colon)) {
        frames = count(item.substr(0, star), spec, "frame count");
        sub = item.substr(star + 1);
      } else if (i + 1 != items.size()) {
        throw spec_error(spec, "every part but the last needs N*SPEC");
      }
      node->parts.emplace_back(frames, parse_node(sub, open));
    }
  } else {
    throw spec_error(spec, "unknown kind '" + kind +
                        "' (constant, step, spike, ramp, sine, walk, trace, seq)");
  }
  return node;
}

}  // namespace

LoadProfile::LoadProfile() : node_{std::make_shared<Node>()} {}

LoadProfile LoadProfile::parse(std::string_view spec, const TraceOpener& open) {
  LoadProfile p;
  p.node_ = parse_node(spec, open);
  p.spec_ = std::string(spec);
  return p;
}

LoadProfile LoadProfile::constant(double ms) {
  auto node = std::make_shared<Node>();
  node->a = ms;
  LoadProfile p;
  p.node_ = std::move(node);
  p.spec_ = "constant:" + format_general(ms, 6);
  return p;
}

double LoadProfile::ms_at(std::int64_t frame) const { return node_->at(frame); }
Nanos LoadProfile::at(std::int64_t frame) const { return from_ms(ms_at(frame)); }

SimCosts sim_costs(const LoadSet& load) {
  return {[r = load.render](std::int64_t f) { return r.at(f); },
          [u = load.update](std::int64_t f, std::int64_t) { return u.at(f); }};
}

SimCosts replay_costs(std::span<const FrameRecord> records, Nanos no_updates) {
  if (records.empty()) throw std::invalid_argument("replay_costs: no records to replay");
  struct Frame {
    Nanos render, present, update, before;
  };
  auto frames = std::make_shared<std::vector<Frame>>();
  frames->reserve(records.size());
  Nanos updates_total{0};
  std::int64_t steps_total = 0;
  for (const FrameRecord& r : records) {
    if (r.sim_steps > 0) {
      updates_total += r.update;
      steps_total += r.sim_steps;
    }
  }
  const Nanos mean_update = steps_total > 0 ? updates_total / steps_total : no_updates;
  // The loop's own time before each frame: from the end of the frame before's columns
  // (its start, updates, render and waits) to this frame's start. The first frame has
  // none before it; it takes the run's mean, for a replay longer than the records.
  Nanos gaps_total{0};
  for (std::size_t i = 0; i < records.size(); ++i) {
    const FrameRecord& r = records[i];
    const Nanos call = std::max(Nanos::zero(), r.present - r.present_issued);
    Nanos before{0};
    if (i > 0) {
      const FrameRecord& p = records[i - 1];
      before = std::max(Nanos::zero(), r.cpu_start - (p.cpu_start + p.update + p.render + p.pacer_wait));
      gaps_total += before;
    }
    frames->push_back({std::max(Nanos::zero(), r.render - call), call,
                       r.sim_steps > 0 ? r.update / r.sim_steps : mean_update, before});
  }
  if (records.size() > 1) (*frames)[0].before = gaps_total / static_cast<std::int64_t>(records.size() - 1);
  const auto at = [frames](std::int64_t f) -> const Frame& {
    return (*frames)[static_cast<std::size_t>(f % static_cast<std::int64_t>(frames->size()))];
  };
  SimCosts costs{[at](std::int64_t f) { return at(f).render; },
                 [at](std::int64_t f, std::int64_t) { return at(std::max<std::int64_t>(f, 0)).update; }};
  costs.present = [at](std::int64_t f) { return at(f).present; };
  costs.between = [at](std::int64_t f) { return at(f).before; };
  return costs;
}

}  // namespace pacer
