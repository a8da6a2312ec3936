// fuzz_native_log: pacer::read_native_log (pacer/log_reader.hpp) on any bytes.
// LogParseError is the documented answer to a malformed log; anything else (a crash, a
// sanitizer report, another exception, a hang) is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "pacer/log_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in{std::string(reinterpret_cast<const char*>(data), size)};
  try {
    const pacer::NativeLog log = pacer::read_native_log(in, "fuzz.csv");
    volatile std::size_t sink = log.records.size();
    (void)sink;
  } catch (const pacer::LogParseError&) {
  }
  return 0;
}
