// header: pacer/formats/include/pacer/log_writer.hpp
// links: framepacer::formats
// run: yes
// The usage example at the top of pacer/log_writer.hpp, word for word between the two marks,
// run in a fresh temporary directory: run.csv holds the header, then one row for the record.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "pacer/log_writer.hpp"

namespace fs = std::filesystem;

int main() {
  // A directory of our own for the example's run.csv, removed at the end.
  const fs::path home = fs::current_path();
  const fs::path dir = fs::temp_directory_path() / ("example_log_writer_" + std::to_string(std::random_device{}()));
  fs::create_directories(dir);
  fs::current_path(dir);
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
  fs::current_path(home);
  fs::remove_all(dir);
  if (!two_lines || header.rfind(std::string{pacer::native_columns()[0]}, 0) != 0 ||
      row + "\n" != pacer::format_native_row(record)) {
    std::printf("run.csv: '%s' then '%s'\n", header.c_str(), row.c_str());
    return 1;
  }
  std::printf("run.csv: the header, then frame 7's row (%zu bytes)\n", row.size());
  return 0;
}
