// header: pacer/formats/include/pacer/exports.hpp
// links: framepacer::formats
// run: yes
// The usage example at the top of pacer/exports.hpp, word for word between the two marks, run
// in a fresh temporary directory: a setting of run.meta.json read back, then a record exported
// as PresentMon CSV (the exact header, then a row naming the application).
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>

#include "pacer/exports.hpp"
#include "example_temp_dir.hpp"

int main() {
  const example::InTempDir own_dir{"example_exports"};  // the example's run.meta.json there, removed at the end
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
  const std::string header{pacer::presentmon_header()};
  if (got != "15.625" || csv.rfind(header + "\n", 0) != 0 || csv.find("\nbouncing_balls,") == std::string::npos) {
    std::printf("step_ms %s; csv:\n%s", got ? got->c_str() : "(none)", csv.c_str());
    return 1;
  }
  std::printf("step_ms %s; PresentMon header and one row\n", got->c_str());
  return 0;
}
