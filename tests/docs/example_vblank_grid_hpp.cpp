// header: pacer/core/include/pacer/vblank_grid.hpp
// links: framepacer::pacer
// run: yes
// The usage example at the top of pacer/vblank_grid.hpp, word for word between the two
// marks, on an exact 60 Hz display: the vblank after a reported one lands on the grid, and
// nearest() finds the vblank two periods on.
#include <cstdio>

#include "pacer/vblank_grid.hpp"

using namespace std::chrono_literals;  // the example's ns literals

int main() {
  const pacer::Nanos shown = 50'000'001ns;   // the display reports vblank 3 (3 x 16'666'667 ns)
  const pacer::Nanos now = 60'000'000ns;     // between vblanks 3 and 4
// [example]
using namespace std::chrono_literals;  // the time literals below (ms, ns)
pacer::VblankGrid grid{16'666'667ns, 0ns};     // 60 Hz announced, a vblank at 0
grid.observe(shown);                            // each display time a present-wait reports
pacer::Nanos next = grid.at_or_after(now);      // the first vblank at or after now
pacer::Nanos same = grid.nearest(shown + 2 * grid.period());   // two vblanks on
// [example]
  if (next != 66'666'668ns || same != 83'333'335ns || grid.period() != 16'666'667ns) return 1;
  std::printf("next vblank at %.6f ms, two on at %.6f ms\n", pacer::to_ms(next), pacer::to_ms(same));
  return 0;
}
