// fuzz_load_spec: pacer::LoadProfile::parse (pacer/load_profile.hpp) on any spec.
// Input: SPEC, then optionally a NUL byte and the bytes of a trace file; the TraceOpener
// serves those bytes for any trace: path. The profile is evaluated at a few frames, as
// pacer-sim and the samples do. LoadSpecError is the documented answer to a bad spec or
// trace; anything else (a crash, a sanitizer report, another exception, a hang, a spec it
// accepts whose cost is negative or not finite) is a finding.
#include <cstddef>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>

#include "pacer/load_profile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string_view spec = input.substr(0, nul);
  const std::string trace{nul == std::string_view::npos ? std::string_view{} : input.substr(nul + 1)};
  const pacer::TraceOpener open = [&trace](const std::string& path) -> std::unique_ptr<std::istream> {
    if (path == "missing.csv") return nullptr;  // the opener's "cannot open"
    return std::make_unique<std::istringstream>(trace);
  };
  try {
    const pacer::LoadProfile profile = pacer::LoadProfile::parse(spec, open);
    for (std::int64_t frame : {0, 1, 2, 59, 60, 119, 1000, 65'536}) {
      const double ms = profile.ms_at(frame);
      const std::int64_t ns = profile.at(frame).count();
      if (!std::isfinite(ms) || ms < 0.0 || ns < 0) {
        std::fprintf(stderr, "fuzz_load_spec: '%s' accepted, frame %lld costs %g ms = %lld ns\n",
                     std::string(spec).c_str(), static_cast<long long>(frame), ms, static_cast<long long>(ns));
        std::abort();
      }
    }
  } catch (const pacer::LoadSpecError&) {
  }
  return 0;
}
