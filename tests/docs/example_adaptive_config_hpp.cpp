// header: pacer/core/include/pacer/adaptive_config.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/adaptive_config.hpp, word for word between the two
// marks: the defaults with a 144 Hz period pass validate(), and a widen_factor of 1 is
// refused with a message that names the field.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "pacer/adaptive_config.hpp"

using namespace std::chrono_literals;  // the example's ns literals

int main() {
// [example]
using namespace std::chrono_literals;  // the time literals below (ms, ns)
pacer::AdaptiveConfig cfg;          // the defaults are the tuned ones (docs/results.md)
cfg.refresh_period = 6'944'444ns;   // a 144 Hz FIFO swapchain (pacer::fit_to_display)
pacer::validate(cfg);               // std::invalid_argument naming a field it refuses
// [example]
  pacer::AdaptiveConfig bad = cfg;
  bad.widen_factor = 1.0;
  try {
    pacer::validate(bad);
    return 1;
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).find("widen_factor") == std::string::npos) return 1;
    std::printf("144 Hz config valid; refused: %s\n", e.what());
  }
  return 0;
}
