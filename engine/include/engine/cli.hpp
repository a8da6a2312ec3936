// engine/cli.hpp - the CLI11 conventions every program's flag table shares (header only;
// docs/reliability.md). Used by the samples (engine::Cli), pacer-sim, pacer-report,
// compare and real_loop_report.
//
//   CLI::App app{"Runs a pacing policy in virtual time.", "pacer-sim"};
//   fpcli::setup(app, FP_VERSION);
//   app.add_option("--render-ms", render_ms, "CPU cost of a render")->transform(fpcli::real(0, 10'000));
//   if (const int code = fpcli::parse(app, argc, argv); code >= 0) return code;
//
// --help and --version print on stdout and exit 0; a usage error is one line on stderr,
// "PROGRAM: WHY", exit 2. Every number has a range; out of range, not finite (nan, inf,
// 1e308) or not a number is "PROGRAM: --FLAG: 1e9 is out of range [0, 10000]". A file-size
// limit is a write error, not a kill (setup ignores SIGXFSZ).
#pragma once

#include <CLI/CLI.hpp>

#include "pacer/decimal.hpp"
#include "pacer/policies.hpp"

#include <charconv>
#include <clocale>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace fpcli {

/// The largest seed: seeds are 0..2^63-1 (they travel through signed 64-bit fields).
inline constexpr long long max_seed = std::numeric_limits<long long>::max();

/// A number as the ranges print it: 10000, 0.001, 1e+08.
inline std::string num_text(double v) { return pacer::format_general(v, 15); }

/// `text` made safe for a one-line message: control characters become '?', at most 80 bytes.
inline std::string printable(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (out.size() >= 80) {
      out += "...";
      break;
    }
    out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  }
  return out;
}

/// Why `text` is not a real number in [lo, hi]; empty when it is.
inline std::string check_real(const std::string& text, double lo, double hi) {
  const std::string shown = printable(text);
  if (text.empty()) return "expected a number, got ''";
  const auto parsed = pacer::parse_decimal(text);  // whatever the C locale's decimal point
  if (!parsed && text.find_first_of("xX") != std::string::npos) return "'" + shown + "' is not a number (decimal only)";
  if (!parsed) return "'" + shown + "' is not a number";
  const double v = *parsed;
  if (std::isnan(v)) return shown + " is not a finite number";
  if (!(v >= lo && v <= hi)) return shown + " is out of range [" + num_text(lo) + ", " + num_text(hi) + "]";
  return {};
}

/// Why `text` is not a whole number in [lo, hi]; empty when it is (then `out` holds it).
/// "1e6" is accepted as 1000000; "2.5" is not a whole number.
inline std::string check_whole(const std::string& text, long long lo, long long hi, long long& out) {
  const std::string shown = printable(text);
  const std::string range = " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (text.empty()) return "expected a whole number, got ''";
  // Digits alone (after one sign) read exactly, past 2^53 too; else a decimal ("1e6").
  const bool plus = text.front() == '+';
  const std::string_view digits = std::string_view{text}.substr(plus ? 1 : 0);
  long long v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc::invalid_argument && end == digits.data() + digits.size() && !(plus && digits.starts_with('-'))) {
    if (ec == std::errc::result_out_of_range || v < lo || v > hi) return shown + range;
    out = v;
    return {};
  }
  const auto parsed = pacer::parse_decimal(text);
  if (!parsed && text.find_first_of("xX") != std::string::npos) return "'" + shown + "' is not a whole number (decimal only)";
  if (!parsed) return "'" + shown + "' is not a whole number";
  const double d = *parsed;
  if (std::isnan(d)) return shown + " is not a finite number";
  // 2^63 (LLONG_MAX as a double) is past a long long: the cast below would be undefined.
  if (!(d >= static_cast<double>(lo) && d <= static_cast<double>(hi) && d < 0x1p63)) return shown + range;
  if (d != std::floor(d)) return "'" + shown + "' is not a whole number";
  out = static_cast<long long>(d);
  return {};
}

/// A CLI11 transform (use ->transform(), not ->check(): it may rewrite the text for the
/// conversion, below): a finite real in [lo, hi].
inline CLI::Validator real(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) {
        std::string why = check_real(s, lo, hi);
        // CLI11 then reads the text with std::strtold, which follows the C locale a host
        // program set (setlocale): where its decimal point is not '.', the checked number is
        // handed on in that locale's form (17 digits: the same double).
        const char* point = std::localeconv()->decimal_point;
        if (why.empty() && point != nullptr && std::strcmp(point, ".") != 0) {
          char buf[64];
          std::snprintf(buf, sizeof buf, "%.17g", pacer::parse_decimal(s).value_or(0));
          s = buf;
        }
        return why;
      },
      "in [" + num_text(lo) + ", " + num_text(hi) + "]");
}

/// A CLI11 transform (use ->transform(), not ->check(): it rewrites "1e6" as "1000000" for
/// the conversion): a whole number in [lo, hi].
inline CLI::Validator whole(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) {
        long long v = 0;
        std::string why = check_whole(s, lo, hi, v);
        if (why.empty()) s = std::to_string(v);
        return why;
      },
      "in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

/// A CLI11 check: a file name that is not empty.
inline CLI::Validator file_name() {
  return CLI::Validator([](std::string& s) { return s.empty() ? std::string("the file name is empty") : std::string(); },
                        "");
}

/// Whether two file names name the same file: the same existing file, or (one not there yet)
/// the same path once made absolute and normalised (`new.html` and `./new.html`).
inline bool same_file(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  if (a == b) return true;
  std::error_code ec;
  if (std::filesystem::equivalent(a, b, ec) && !ec) return true;
  std::error_code ea, eb, ea2, eb2;
  const auto ca = std::filesystem::weakly_canonical(std::filesystem::absolute(a, ea), ea2);
  const auto cb = std::filesystem::weakly_canonical(std::filesystem::absolute(b, eb), eb2);
  return !ea && !eb && !ea2 && !eb2 && ca == cb;
}

/// A CLI11 check: one of `choices` ("a|b|c").
inline CLI::Validator one_of(std::vector<std::string> choices) {
  std::string list;
  for (const auto& c : choices) list += (list.empty() ? "" : "|") + c;
  return CLI::Validator(
      [choices, list](std::string& s) {
        for (const auto& c : choices)
          if (c == s) return std::string();
        return "expected " + list + ", got '" + printable(s) + "'";
      },
      list);
}

/// The conventions: --version, the last of a repeated flag wins, a terse usage line.
/// Also ignores SIGXFSZ for the process: past a file-size limit (`ulimit -f`) a write then
/// fails with EFBIG, which every output reports as its error ("writing 'run.csv' failed: File
/// too large", exit 1, the file cut back to its last whole row), where the signal's default
/// killed the program with a torn row and an empty sidecar.
inline void setup(CLI::App& app, const std::string& version) {
  std::signal(SIGXFSZ, SIG_IGN);
  app.set_version_flag("--version", app.get_name() + " " + version);
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.allow_extras();  // unknown flags: our own one-line message below
}

/// The pacing flags the samples and pacer-sim share, into `cfg`: --max-steps, --debt,
/// --no-shrink, --pipeline-frames, --even-cadence.
inline void add_pacing_flags(CLI::App& app, pacer::PolicyConfig& cfg) {
  app.add_option("--max-steps", cfg.sim.max_steps_per_frame, "updates per frame at most (default 8)")
      ->type_name("N")->transform(whole(1, 10'000));
  app.add_option_function<std::string>(
         "--debt", [&cfg](const std::string& d) { cfg.sim.debt = d == "keep" ? pacer::DebtPolicy::keep : pacer::DebtPolicy::discard; },
         "what happens to time beyond the step cap: discard (default) or keep")
      ->type_name("discard|keep")->check(one_of({"discard", "keep"}));
  app.add_flag_callback("--no-shrink", [&cfg] { cfg.adaptive.shrink = false; }, "adaptive: hold the interval (it still widens on overrun)");
  app.add_option("--pipeline-frames", cfg.adaptive.pipeline_frames,
                 "adaptive, fifo: frames start up to N intervals ahead of their display (default 2, at most images - 1; 1: least latency)")
      ->type_name("N")->transform(whole(1, 8));
  app.add_flag_callback("--even-cadence", [&cfg] { cfg.adaptive.mixed_cadence_loss = 1; },
                        "adaptive: whole refresh periods always, never the mixed cadence");
}

/// --adaptive NAME=VALUE, repeatable: a field of the adaptive policies' config by name
/// (pacer::set_knob; a duration as NAME_ms in ms). The texts land in `texts`; each program
/// checks them with parse_knob after parsing and applies them where its config is fitted.
inline void add_adaptive_flag(CLI::App& app, std::vector<std::string>& texts) {
  app.add_option("--adaptive", texts,
                 "adaptive: set a field of its config for this run, repeatable (NAME=VALUE; a duration as NAME_ms "
                 "in ms, e.g. max_lag_ms=500; the names: pacer::set_knob in pacer/adaptive_config.hpp)")
      ->type_name("NAME=VALUE");
}

/// One --adaptive NAME=VALUE: "" with `out` set, or why it is not one ("'x' is not
/// NAME=NUMBER (a decimal number)", "'x' is not a known NAME=NUMBER").
inline std::string parse_knob(const std::string& text, std::pair<std::string, double>& out) {
  const auto eq = text.find('=');
  // A decimal number, checked as every flag's (finite, no hex, no trailing text).
  if (eq == std::string::npos || !check_real(text.substr(eq + 1), -1e18, 1e18).empty())
    return "'" + printable(text) + "' is not NAME=NUMBER (a decimal number)";
  pacer::AdaptiveConfig probe;
  if (!pacer::set_knob(probe, text)) return "'" + printable(text) + "' is not a known NAME=NUMBER";
  out = {text.substr(0, eq), pacer::parse_decimal(text.substr(eq + 1)).value_or(0)};  // checked just above
  return {};
}

/// Prints "PROGRAM: WHY" (one line) on stderr; returns 2.
inline int usage_error(const std::string& program, std::string why) {
  for (char& c : why)
    if (c == '\n' || c == '\r') c = ' ';
  while (!why.empty() && why.back() == ' ') why.pop_back();
  std::fprintf(stderr, "%s: %s\n", program.c_str(), why.c_str());
  return 2;
}

/// Parses. Returns -1 to go on, 0 after --help/--version (printed on stdout), 2 after a
/// usage error (one line on stderr).
inline int parse(CLI::App& app, int argc, const char* const* argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
      // "--frames: 1 required INT missing": say which flag wants a value.
      const std::string what = e.what();
      const auto colon = what.find(':');
      if (what.rfind("--", 0) == 0 && colon != std::string::npos && what.find("missing") != std::string::npos)
        return usage_error(app.get_name(), what.substr(0, colon) + " needs a value");
    }
    return usage_error(app.get_name(), e.what());
  }
  if (!app.remaining().empty()) {
    const std::string first = printable(app.remaining().front());
    if (first.rfind("-", 0) == 0) return usage_error(app.get_name(), "unknown option '" + first + "' (see --help)");
    return usage_error(app.get_name(), "unexpected argument '" + first + "' (see --help)");
  }
  return -1;
}

}  // namespace fpcli
