// pacer/decimal.hpp: decimal numbers read and written as the logs write them. The same
// under a host's locale: tests/locale/test_locale.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "pacer/decimal.hpp"

using pacer::format_fixed;
using pacer::format_general;
using pacer::parse_decimal;

TEST(Decimal, ReadsTheWholeTextAsADecimalNumber) {
  EXPECT_EQ(parse_decimal("59.94"), 59.94);
  EXPECT_EQ(parse_decimal("16"), 16.0);
  EXPECT_EQ(parse_decimal("-1.5"), -1.5);
  EXPECT_EQ(parse_decimal("+2.5"), 2.5);
  EXPECT_EQ(parse_decimal(".5"), 0.5);
  EXPECT_EQ(parse_decimal("5."), 5.0);
  EXPECT_EQ(parse_decimal("1e6"), 1e6);
  EXPECT_EQ(parse_decimal("2.5E-3"), 2.5e-3);
  EXPECT_EQ(parse_decimal("16.666667"), 16.666667);
}

TEST(Decimal, RefusesWhatIsNotAPlainDecimalNumber) {
  for (const char* text : {"", "+", "-", ".", "e5", "0x10", "0X1p4", " 5", "5 ", "5\t", "16ms", "2,5", "1,000",
                           "--5", "+-5", "-+5", "1e", "1e+", "five", "5\n"})
    EXPECT_FALSE(parse_decimal(text)) << "'" << text << "'";
}

TEST(Decimal, GivesInfinityAndNanToTheCallerToRefuse) {
  EXPECT_EQ(parse_decimal("inf"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(parse_decimal("-Infinity"), -std::numeric_limits<double>::infinity());
  ASSERT_TRUE(parse_decimal("nan"));
  EXPECT_TRUE(std::isnan(*parse_decimal("nan")));
}

TEST(Decimal, PastADoublesRangeIsInfinityOrZeroAsStrtodReadsIt) {
  EXPECT_EQ(parse_decimal("1e999"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(parse_decimal("-1e999"), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(parse_decimal("1e-999"), 0.0);
  EXPECT_EQ(parse_decimal("-1e-999"), -0.0);
  EXPECT_EQ(parse_decimal("123456789e-999"), 0.0);
  EXPECT_EQ(parse_decimal("0.000001e400"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(parse_decimal("1e99999999999999999999"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(parse_decimal("1e-99999999999999999999"), 0.0);
  EXPECT_EQ(parse_decimal("12345e9223372036854775807"), std::numeric_limits<double>::infinity());  // fuzzer
  EXPECT_EQ(parse_decimal("0.00001e-9223372036854775807"), 0.0);
  // A subnormal is a number, not out of range.
  EXPECT_EQ(parse_decimal("1e-310"), 1e-310);
}

TEST(Decimal, WritesAsPrintfDoesInTheCLocale) {
  // The tests run in the "C" locale (no setlocale): printf is the reference here.
  for (const double v : {0.0, -0.0, 0.5, 1.0 / 3.0, 16.666667, -1.5, 2.5e-7, 59.94, 1e15, 123456.789, 1e300}) {
    for (const int digits : {0, 1, 3, 4, 6}) {
      char want[512];
      std::snprintf(want, sizeof want, "%.*f", digits, v);
      EXPECT_EQ(format_fixed(v, digits), want) << v << " with " << digits << " decimals";
      std::snprintf(want, sizeof want, "%.*g", digits, v);
      EXPECT_EQ(format_general(v, digits), want) << v << " with " << digits << " digits";
    }
  }
  EXPECT_EQ(format_fixed(0.5, 6), "0.500000");
  EXPECT_EQ(format_general(59.94, 6), "59.94");
  EXPECT_EQ(format_fixed(1e308, 2).size(), 312u);  // the whole number, not cut at a buffer's end
}

TEST(Decimal, WhatItWritesReadsBack) {
  for (const double v : {0.5, 16.666667, -1.25, 59.94, 144.0, 1e-3})
    EXPECT_EQ(parse_decimal(format_fixed(v, 6)), std::stod(format_fixed(v, 6))) << v;
}
