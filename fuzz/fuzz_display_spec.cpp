// fuzz_display_spec: pacer::parse_display (pacer/display_spec.hpp) on any text.
// parse_display answers nullopt for a malformed spec; a spec it accepts is written back
// with to_string, which must parse again (the header's promise: "the spec written back in
// the syntax parse_display reads"). Anything else (a crash, a sanitizer report, an
// exception, a hang, a round trip that does not parse) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "pacer/display_spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto spec = pacer::parse_display(text);
  if (!spec) return 0;
  const std::string back = pacer::to_string(*spec);
  if (!pacer::parse_display(back)) {
    std::fprintf(stderr, "fuzz_display_spec: '%s' parsed, but its to_string '%s' does not\n",
                 std::string(text).c_str(), back.c_str());
    std::abort();
  }
  return 0;
}
