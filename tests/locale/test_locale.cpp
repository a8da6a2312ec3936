// The module inside a host that set a locale whose decimal point is a comma (de_DE): the
// logs, the exports, the display specs, the load specs and the flags read and write numbers
// as they do under "C". std::strtod and printf follow the host's C locale, iostreams its
// global C++ locale (thousands grouped "12.345"); the module uses neither for numbers.
//
// The de_DE.UTF-8 locale is made by the test locale_make_de_DE (localedef, Debian's
// `locales` package) under LOCPATH; without it these tests fail rather than pass unchecked.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include <clocale>
#include <cstdio>
#include <locale>
#include <sstream>
#include <string>
#include <vector>

#include "engine/cli.hpp"
#ifdef FP_LOCALE_CAPTURE
#include <fstream>
#include <iterator>

#include "capture.hpp"  // renderer/src: write_ppm
#endif
#ifdef FP_LOCALE_OVERLAY
#include "engine/overlay.hpp"
#include "../engine/overlay_frame.hpp"
#endif
#include "pacer/decimal.hpp"
#include "pacer/display_spec.hpp"
#include "pacer/exports.hpp"
#include "pacer/load_profile.hpp"
#include "pacer/log_reader.hpp"
#include "pacer/log_writer.hpp"
#include "../pacer/worked_records.hpp"

using namespace pacer;
using namespace pacer::literals;

namespace {

/// The host's locale for the test's length: de_DE.UTF-8 for the C library and iostreams.
class GermanLocale : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(std::setlocale(LC_ALL, "de_DE.UTF-8"), nullptr)
        << "no de_DE.UTF-8 locale (LOCPATH=" << (std::getenv("LOCPATH") ? std::getenv("LOCPATH") : "unset")
        << "): the test locale_make_de_DE makes it";
    old_ = std::locale::global(std::locale("de_DE.UTF-8"));
    // The locale is live: printf writes a comma, strtod stops at a point, a stream groups.
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", 2.5);
    ASSERT_STREQ(buf, "2,5");
    std::ostringstream grouped;
    grouped << 12345;
    ASSERT_EQ(grouped.str(), "12.345");
  }
  void TearDown() override {
    std::locale::global(old_);
    std::setlocale(LC_ALL, "C");
  }
  std::locale old_;
};

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss{line};
  for (std::string cell; std::getline(ss, cell, ',');) out.push_back(cell);
  return out;
}

}  // namespace

TEST_F(GermanLocale, NumbersReadAndWriteWithAPoint) {
  EXPECT_EQ(parse_decimal("59.94"), 59.94);
  EXPECT_FALSE(parse_decimal("59,94"));
  EXPECT_EQ(format_fixed(0.5, 6), "0.500000");
  EXPECT_EQ(format_general(59.94, 6), "59.94");
}

TEST_F(GermanLocale, DisplaySpecsParseAndPrintAsUnderC) {
  const auto spec = parse_display("fifo:59.94,jitter=0.05ms");
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->period, Nanos{16'683'350});
  EXPECT_EQ(spec->jitter, 50_us);
  EXPECT_EQ(to_string(*parse_display("vrr:47.5-143.9")), "vrr:47.5-143.9");
}

TEST_F(GermanLocale, LoadSpecsParseAsUnderC) {
  const LoadProfile load = LoadProfile::parse("constant:2.5", trace_file_opener());
  EXPECT_EQ(load.at(0), 2500_us);
  EXPECT_EQ(LoadProfile::constant(2.5).spec(), "constant:2.5");
}

TEST_F(GermanLocale, TheNativeLogKeepsItsColumnsAndReadsBack) {
  const std::vector<FrameRecord> records = worked_records(3);
  std::stringstream log;
  NativeLogWriter w{log};
  for (const auto& r : records) w.write(r);
  std::string header, row;
  std::getline(log, header);
  std::getline(log, row);
  std::getline(log, row);  // frame 1: alpha 0.2
  EXPECT_EQ(cells(row).size(), cells(header).size()) << row;
  EXPECT_NE(row.find(",0.200000,"), std::string::npos) << row;
  log.clear();
  log.seekg(0);
  NativeLogReader reader{log, "locale.csv"};
  FrameRecord r;
  for (const auto& want : records) {
    ASSERT_TRUE(reader.next(r));
    EXPECT_EQ(r.cpu_start, want.cpu_start);
    EXPECT_EQ(r.alpha, want.alpha);
  }
}

TEST_F(GermanLocale, ExportsKeepTheirColumnsAndUngroupedIntegers) {
  const std::vector<FrameRecord> records = worked_records(4);
  RunInfo info;
  info.process_id = 12345;
  info.config = {{"step_ms", format_fixed(5.0, 6)}};
  for (const LogFormat format : {LogFormat::presentmon, LogFormat::mangohud}) {
    std::ostringstream out;
    auto sink = make_log_sink(format, out, info);
    for (const auto& r : records) sink->write(r);
    sink->finish();
    std::istringstream lines{out.str()};
    std::vector<std::string> rows;
    for (std::string line; std::getline(lines, line);) rows.push_back(line);
    ASSERT_GE(rows.size(), 3u);
    // The frame rows: as many cells as the header line above them, every number with a point.
    const std::string& frame_header = format == LogFormat::presentmon ? rows[0] : rows[2];
    const std::string& last = rows.back();
    EXPECT_EQ(cells(last).size(), cells(frame_header).size()) << last;
    EXPECT_EQ(last.find("12.345"), std::string::npos) << last;
    if (format == LogFormat::presentmon) {
      EXPECT_EQ(cells(last)[1], "12345") << last;
    }
  }
  std::ostringstream sidecar;
  write_run_metadata(sidecar, info, nullptr);
  EXPECT_NE(sidecar.str().find("\"process_id\": 12345"), std::string::npos) << sidecar.str();
  EXPECT_EQ(run_metadata_value(sidecar.str(), "step_ms"), "5.000000");
}

TEST_F(GermanLocale, FlagsTakeAPointAndRefuseAComma) {
  CLI::App app{"locale test", "locale_tests"};
  double ms = 0;
  app.add_option("--render-ms", ms)->transform(fpcli::real(0, 100));
  const char* args[] = {"locale_tests", "--render-ms", "2.5"};
  EXPECT_NO_THROW(app.parse(3, args));
  EXPECT_EQ(ms, 2.5);
  EXPECT_EQ(fpcli::check_real("2,5", 0, 100), "'2,5' is not a number");
  long long whole = 0;
  EXPECT_EQ(fpcli::check_whole("1e3", 0, 10'000, whole), "");
  EXPECT_EQ(whole, 1000);
}

#ifdef FP_LOCALE_OVERLAY
TEST_F(GermanLocale, TheOverlaysNumbersKeepTheirPoint) {
  // Its 5x7 font has no ',': a comma would be drawn as '?'.
  engine::Overlay overlay;
  for (std::int64_t i = 0; i < 200; ++i) overlay.add(test_overlay::frame(i, 2_ms));
  overlay.build(16_ms);
  ASSERT_EQ(overlay.lines().size(), 5u);
  EXPECT_EQ(overlay.lines()[0], "FPS 62.5  INTERVAL 16.00 MS");
  EXPECT_EQ(overlay.lines()[4], "GPU 2.000 MS");
}
#endif

#ifdef FP_LOCALE_CAPTURE
TEST_F(GermanLocale, ACaptureImagesHeaderKeepsItsDigits) {
  // The PPM header's width was written through the stream's <<, "1.280" under de_DE.
  const std::string path = ::testing::TempDir() + "locale_capture.ppm";
  const std::vector<std::uint8_t> pixels(std::size_t{1280} * 2 * 4, 0x80);
  ASSERT_EQ(renderer::detail::write_ppm(path, VkExtent2D{1280, 2}, pixels, false), "");
  std::ifstream in{path, std::ios::binary};
  const std::string bytes{std::istreambuf_iterator<char>{in}, {}};
  EXPECT_EQ(bytes.substr(0, 14), "P6\n1280 2\n255\n");
  EXPECT_EQ(bytes.size(), 14u + 1280u * 2u * 3u);
}
#endif
