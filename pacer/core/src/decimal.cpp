#include "pacer/decimal.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

namespace pacer {

namespace {

/// Whether a decimal `number` (no sign) that std::from_chars found out of range is too
/// large (true) or too small (false): the power of ten of its first significant digit,
/// plus its exponent, is over or under zero.
bool overflows(std::string_view number) {
  const auto e = number.find_first_of("eE");
  const std::string_view mantissa = number.substr(0, e);
  long long exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view digits = number.substr(e + 1);
    const bool negative = !digits.empty() && digits.front() == '-';
    if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) digits.remove_prefix(1);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), exponent);
    if (ec == std::errc::result_out_of_range) return !negative;  // an exponent past 10^18
    if (negative) exponent = -exponent;
  }
  const auto point = std::min(mantissa.find('.'), mantissa.size());
  const auto first = mantissa.find_first_of("123456789");
  if (first == std::string_view::npos) return false;  // all zeros: nothing to overflow
  const long long order = first < point ? static_cast<long long>(point - first) - 1
                                        : -static_cast<long long>(first - point);
  return exponent > -order;  // order + exponent > 0, without overflow (|order| <= the text's length)
}

}  // namespace

std::optional<double> parse_decimal(std::string_view text) {
  std::string_view number = text;
  bool negative = false;
  if (!number.empty() && (number.front() == '+' || number.front() == '-')) {
    negative = number.front() == '-';
    number.remove_prefix(1);
  }
  // from_chars takes a '-' (and then a second sign would pass) but no '+': the sign is read
  // here, and what follows must start with a digit, a point or a letter of inf / nan.
  if (number.empty() || number.front() == '+' || number.front() == '-') return std::nullopt;
  double value = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (end != number.data() + number.size()) return std::nullopt;  // "0x10", "5 ", "16ms", "2,5"
  if (ec == std::errc::result_out_of_range)
    value = overflows(number) ? std::numeric_limits<double>::infinity() : 0.0;
  else if (ec != std::errc{})
    return std::nullopt;
  return negative ? -value : value;
}

std::optional<double> parse_finite_decimal(std::string_view text) {
  const auto v = parse_decimal(text);
  if (!v || !std::isfinite(*v)) return std::nullopt;
  return v;
}

namespace {

std::string format(double value, std::chars_format how, int digits) {
  if (digits < 0) digits = 6;  // printf's default precision, as "%.*f" with a negative one
  // A log cell's number fits the stack buffer (no allocation besides the result's); the
  // longest, a fixed 1e308 (309 digits) with many decimals, gets room on the heap.
  char small[64];
  if (const auto [end, ec] = std::to_chars(small, small + sizeof small, value, how, digits); ec == std::errc{})
    return std::string(small, end);
  std::string out(340 + static_cast<std::size_t>(digits), '\0');
  const auto [end, ec] = std::to_chars(out.data(), out.data() + out.size(), value, how, digits);
  if (ec != std::errc{}) return "?";  // cannot happen with the room above
  out.resize(static_cast<std::size_t>(end - out.data()));
  return out;
}

}  // namespace

std::string format_fixed(double value, int digits) { return format(value, std::chars_format::fixed, digits); }

std::string format_general(double value, int digits) { return format(value, std::chars_format::general, digits); }

}  // namespace pacer
