// The pacing overlay's content (engine/overlay.hpp): its numbers come from the latest
// records, its shapes stay inside its panel, and its text uses the built-in font.
#include <gtest/gtest.h>

#include <string>

#include "engine/overlay.hpp"
#include "overlay_frame.hpp"

using namespace engine;
using namespace pacer::literals;
using pacer::Nanos;
using test_overlay::frame;

TEST(Overlay, ShowsTheNumbersOfTheLatestFrames) {
  Overlay overlay;
  for (int i = 0; i < 300; ++i) overlay.add(frame(i, 2_ms));
  overlay.build(16_ms);
  EXPECT_NEAR(overlay.summary().average_fps, 62.5, 0.01);
  ASSERT_TRUE(overlay.gpu_ms().has_value());
  EXPECT_DOUBLE_EQ(*overlay.gpu_ms(), 2.0);
  const auto& lines = overlay.lines();
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], "FPS 62.5  INTERVAL 16.00 MS");
  EXPECT_EQ(lines[1], "POLICY adaptive");
  EXPECT_EQ(lines[2], "P99 ANIM ERR 0.000 MS");
  EXPECT_EQ(lines[3], "STUTTERS 0  P99 FRAME 16.0 MS");
  EXPECT_EQ(lines[4], "GPU 2.000 MS");
}

TEST(Overlay, WithoutGpuTimesSaysNa) {
  Overlay overlay;
  for (int i = 0; i < 10; ++i) {
    pacer::FrameRecord r = frame(i, 0_ms);
    r.gpu.reset();
    overlay.add(r);
  }
  overlay.build(16_ms);
  EXPECT_FALSE(overlay.gpu_ms().has_value());
  EXPECT_EQ(overlay.lines().back(), "GPU NA");
}

TEST(Overlay, ShapesStayInsideThePanel) {
  Overlay overlay;
  for (int i = 0; i < 300; ++i) overlay.add(frame(i, (i % 7) * 3_ms));
  overlay.build(16_ms);
  ASSERT_GT(overlay.shapes().size(), 500u);
  for (const Circle& c : overlay.shapes()) {
    EXPECT_LT(c.radius, 0) << "squares only";
    EXPECT_GE(c.x + c.radius, Overlay::left - 0.01f);
    EXPECT_LE(c.x - c.radius, Overlay::left + Overlay::width + 0.01f);
    EXPECT_GE(c.y + c.radius, Overlay::top - 0.01f);
    EXPECT_LE(c.y - c.radius, Overlay::top + Overlay::height + 0.01f);
  }
}

TEST(Overlay, TextIsDrawnPixelByPixel) {
  std::vector<Circle> out;
  const float end = Overlay::draw_text(out, 10, 20, "1", 2, 0xffffffffu);
  EXPECT_FLOAT_EQ(end, 22);                     // 6 font pixels of 2 per character
  EXPECT_EQ(out.size(), 10u);                   // '1' lights 10 of its 35 pixels
  std::vector<Circle> lower, upper;
  Overlay::draw_text(lower, 0, 0, "fps", 2, 1);
  Overlay::draw_text(upper, 0, 0, "FPS", 2, 1);
  EXPECT_EQ(lower.size(), upper.size());
  std::vector<Circle> unknown;
  Overlay::draw_text(unknown, 0, 0, "~", 2, 1);
  std::vector<Circle> question;
  Overlay::draw_text(question, 0, 0, "?", 2, 1);
  EXPECT_EQ(unknown.size(), question.size());
}
