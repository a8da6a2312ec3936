// header: pacer/formats/include/pacer/exports.hpp
// links: framepacer::formats
// run: yes
// The usage example at the top of pacer/exports.hpp, word for word between the two marks, run
// in a fresh temporary directory: a setting of run.meta.json read back, then a record exported
// as PresentMon CSV (the exact header, then a row naming the application).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include "pacer/exports.hpp"

namespace fs = std::filesystem;

int main() {
  // A directory of our own for the example's run.meta.json, removed at the end.
  const fs::path home = fs::current_path();
  const fs::path dir = fs::temp_directory_path() / ("example_exports_" + std::to_string(std::random_device{}()));
  fs::create_directories(dir);
  fs::current_path(dir);
  {  // What the example leaves to the caller: the sidecar of an earlier run, a file, a record.
    pacer::RunInfo earlier;
    earlier.config = {{"step_ms", "15.625"}};
    std::ofstream meta{"run.meta.json"};
    pacer::write_run_metadata(meta, earlier);
  }
  std::ostringstream file;
  pacer::FrameRecord record;
  record.present = pacer::Nanos{19'000'000};
  std::string csv;
  std::optional<std::string> got;
  {
// [example]
std::ifstream in{pacer::run_metadata_path("run.csv")};        // run.meta.json
const std::string json{std::istreambuf_iterator<char>{in}, {}};
std::optional<std::string> step = pacer::run_metadata_value(json, "step_ms");

pacer::RunInfo info;  info.application = "bouncing_balls";  info.policy = "adaptive";
auto sink = pacer::make_log_sink(pacer::LogFormat::presentmon, file, info);
sink->write(record);  /* ... */  sink->finish();
// [example]
    got = step;
    csv = file.str();
  }
  fs::current_path(home);
  fs::remove_all(dir);
  const std::string header{pacer::presentmon_header()};
  if (got != "15.625" || csv.rfind(header + "\n", 0) != 0 || csv.find("\nbouncing_balls,") == std::string::npos) {
    std::printf("step_ms %s; csv:\n%s", got ? got->c_str() : "(none)", csv.c_str());
    return 1;
  }
  std::printf("step_ms %s; PresentMon header and one row\n", got->c_str());
  return 0;
}
