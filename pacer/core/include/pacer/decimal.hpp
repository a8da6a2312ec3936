// pacer/decimal.hpp - decimal numbers as text, the same under every locale.
//
// The logs, the display specs and the command lines write and read numbers with a '.'
// point. std::strtod and printf's %f and %g follow the C locale the host set
// (setlocale(LC_NUMERIC, ...)): under a German one they read "59.94" as 59 and write 0.5 as
// "0,5", a comma that splits a CSV cell in two. These use std::from_chars and std::to_chars,
// which read and write the "C" locale's form whatever the host set:
//
//   std::optional<double> hz = pacer::parse_decimal("59.94");  // 59.94
//   pacer::parse_decimal("0x10");                              // nullopt: decimal only
//   pacer::parse_decimal(" 5");                                // nullopt: no spaces
//   pacer::parse_finite_decimal("inf");                        // nullopt: finite only
//   std::string cell = pacer::format_fixed(0.5, 6);             // "0.500000" (printf's %.6f)
//   std::string rate = pacer::format_general(59.94, 6);         // "59.94" (printf's %.6g)
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pacer {

/// The whole of `text` as a decimal number: an optional sign ('+' or '-'), digits with an
/// optional '.', an optional exponent ("1e6", "2.5E-3"). Also "inf", "infinity" and "nan"
/// in any case (callers that want a finite number check for it). nullopt for anything else:
/// empty text, spaces anywhere, hex ("0x10"), a trailing unit or a comma for the point.
/// Beyond a double's range: +-infinity when too large, +-0 when too small (as std::strtod).
std::optional<double> parse_decimal(std::string_view text);

/// parse_decimal, finite only: nullopt also for "inf", "nan" and a number past a double's
/// range (what every reader of a log, a trace or a load spec wants).
std::optional<double> parse_finite_decimal(std::string_view text);

/// `value` with `digits` decimals, as printf's "%.*f" in the "C" locale: 0.5, 6 -> "0.500000".
/// Every log format and report writes its decimals with it.
std::string format_fixed(double value, int digits);

/// `value` with `digits` significant digits, as printf's "%.*g" in the "C" locale:
/// 59.94, 6 -> "59.94"; 1e-7, 6 -> "1e-07".
std::string format_general(double value, int digits);

}  // namespace pacer
