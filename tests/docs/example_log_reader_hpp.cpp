// header: pacer/formats/include/pacer/log_reader.hpp
// links: framepacer::formats
// run: yes
// The usage example at the top of pacer/log_reader.hpp, word for word between the two marks,
// run in a fresh temporary directory on a run.csv of four frames shown every 16 ms (one row
// of it torn): three records read back, a warning for the fourth, 62.5 fps.
#include <cstdio>
#include <fstream>
#include <string>

#include "pacer/log_reader.hpp"
#include "pacer/stats.hpp"
#include "example_temp_dir.hpp"

int main() {
  const example::InTempDir own_dir{"example_log_reader"};  // the example's run.csv there, removed at the end
  // What the example leaves to the caller: a log (the native columns, a writer cut off mid-row).
  std::ofstream{"run.csv"}
      << "frame,policy,timing_source,cpu_start_ms,planned_start_ms,interval_ms,ms_render,sim_steps,ms_update,"
         "ms_pacer_wait,present_ms,display_ms,sim_prev_ms,sim_curr_ms,interp_alpha,animation_time_ms,"
         "interval_event,dropped_ms\n"
         "0,adaptive,virtual,0,0,16,3,1,1,12,3,16,0,16,1,0,none,0\n"
         "1,adaptive,virtual,16,16,16,3,1,1,12,19,32,16,32,1,16,none,0\n"
         "2,adaptive,virtual,32,32,16,3,1,1,12,35,48,32,48,1,32,none,0\n"
         "3,adaptive,virtual,48,48";
  int rc = 1;
  {
// [example]
std::ifstream in{"run.csv"};
pacer::NativeLog log = pacer::read_native_log(in, "run.csv");   // throws LogParseError
pacer::Summary s = pacer::summarize(log.records);              // pacer/stats.hpp
// [example]
    if (log.records.size() == 3 && log.warnings.size() == 1 && log.records[2].policy == "adaptive" &&
        log.records[2].display == pacer::Nanos{48'000'000} && s.frames == 3 && s.average_fps == 62.5) {
      std::printf("3 records, %s; %.1f fps\n", log.warnings[0].c_str(), s.average_fps);
      rc = 0;
    }
  }
  return rc;
}
