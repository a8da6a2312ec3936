// header: pacer/core/include/pacer/decimal.hpp
// links: framepacer::pacer
// run: yes
// The usage example of pacer/decimal.hpp, word for word between the two marks, under a
// German numeric locale where one is installed (its results are the same under every locale).
#include <clocale>
#include <cstdio>
#include <optional>
#include <string>

#include "pacer/decimal.hpp"

int main() {
  std::setlocale(LC_NUMERIC, "de_DE.UTF-8");  // a ',' point for strtod and printf, where the system has it
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
  std::printf("%s %s\n", cell.c_str(), rate.c_str());  // "0,500000"-free whatever the locale
  return 0;
}
