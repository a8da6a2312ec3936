// fuzz_trace_reader: pacer::read_trace_column (pacer/load_profile.hpp) on any bytes.
// The input is the trace file; its first byte picks the column asked for. LoadSpecError is
// the documented answer to a bad trace; anything else (a crash, a sanitizer report, another
// exception, a hang) is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "pacer/load_profile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const char* const columns[] = {"frame_ms", "MsBetweenPresents", "ms", "", "a,b"};
  const char* column = columns[size > 0 ? data[0] % 5 : 0];
  std::istringstream in{std::string(reinterpret_cast<const char*>(data), size)};
  try {
    const auto values = pacer::read_trace_column(in, "fuzz.csv", column);
    volatile double sink = 0;
    for (double v : values) sink = sink + v;
  } catch (const pacer::LoadSpecError&) {
  }
  return 0;
}
