// header: pacer/core/include/pacer/display_spec.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/display_spec.hpp, word for word between the two
// marks: "fifo:60" parses to a 60 Hz FIFO display, fit_to_display hands its period and
// pipeline depth (images - 1) to the adaptive policy, and the spec prints back as "fifo:60".
#include <cstdio>
#include <string>

#include "pacer/display_spec.hpp"
#include "pacer/policies.hpp"

int main() {
// [example]
pacer::DisplaySpec spec = pacer::parse_display("fifo:60").value();
spec.images = 3;                                    // the swapchain's image count
pacer::PolicyConfig cfg;  pacer::fit_to_display(cfg, spec);  // pacer/policies.hpp
std::string text = pacer::to_string(spec);          // "fifo:60"
// [example]
  if (spec.mode != pacer::PresentMode::fifo || spec.period != pacer::Nanos{16'666'667}) return 1;
  if (cfg.adaptive.refresh_period != spec.period || cfg.adaptive.pipeline_frames != 2) return 1;
  if (text != "fifo:60") return 1;
  std::printf("%s: refresh %.3f ms, pipeline %d frames\n", text.c_str(), pacer::to_ms(cfg.adaptive.refresh_period),
              cfg.adaptive.pipeline_frames);
  return 0;
}
