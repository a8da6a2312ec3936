// header: pacer/core/include/pacer/decimal.hpp
// links: framepacer::pacer
// run: yes
// The usage example of pacer/decimal.hpp, word for word between the two marks, with its
// results checked (the same under every locale: tests/locale runs these under de_DE).
#include <cstdio>
#include <optional>
#include <string>

#include "pacer/decimal.hpp"

int main() {
// [example]
std::optional<double> hz = pacer::parse_decimal("59.94");  // 59.94
pacer::parse_decimal("0x10");                              // nullopt: decimal only
pacer::parse_decimal(" 5");                                // nullopt: no spaces
pacer::parse_finite_decimal("inf");                        // nullopt: finite only
std::string cell = pacer::format_fixed(0.5, 6);             // "0.500000" (printf's %.6f)
std::string rate = pacer::format_general(59.94, 6);         // "59.94" (printf's %.6g)
// [example]
  if (hz != 59.94 || pacer::parse_decimal("0x10") || pacer::parse_decimal(" 5") ||
      pacer::parse_finite_decimal("inf") || !pacer::parse_decimal("inf") ||
      pacer::parse_finite_decimal("1e999") || pacer::parse_finite_decimal("-2.5e-3") != -2.5e-3 ||
      cell != "0.500000" || rate != "59.94")
    return 1;
  std::printf("%s %s\n", cell.c_str(), rate.c_str());
  return 0;
}
