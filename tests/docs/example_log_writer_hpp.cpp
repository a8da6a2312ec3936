// header: pacer/formats/include/pacer/log_writer.hpp
// links: framepacer::formats
// run: yes
// The usage example at the top of pacer/log_writer.hpp, word for word between the two marks,
// run in a fresh temporary directory: run.csv holds the header, then one row for the record.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "pacer/log_writer.hpp"
#include "example_temp_dir.hpp"

int main() {
  const example::InTempDir own_dir{"example_log_writer"};  // the example's run.csv there, removed at the end
  // What the example leaves to the caller: a frame's record.
  pacer::FrameRecord record;
  record.frame = 7;
  record.policy = "adaptive";
  record.cpu_start = pacer::Nanos{16'000'000};
  record.present = pacer::Nanos{19'000'000};
  {
// [example]
std::ofstream file{"run.csv"};
pacer::NativeLogWriter log{file};          // writes the header
log.write(record);                         // one row per FrameRecord
// [example]
  }
  std::ifstream in{"run.csv"};
  std::string header, row, extra;
  const bool two_lines = std::getline(in, header) && std::getline(in, row) && !std::getline(in, extra);
  in.close();
  if (!two_lines || header.rfind(std::string{pacer::native_columns()[0]}, 0) != 0 ||
      row + "\n" != pacer::format_native_row(record)) {
    std::printf("run.csv: '%s' then '%s'\n", header.c_str(), row.c_str());
    return 1;
  }
  std::printf("run.csv: the header, then frame 7's row (%zu bytes)\n", row.size());
  return 0;
}
