#include "engine/overlay.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "pacer/decimal.hpp"

namespace engine {

namespace {

/// 5x7 glyphs, a row per byte (bit 4 is the leftmost pixel), top row first.
struct Glyph {
  char c;
  std::array<std::uint8_t, 7> rows;
};

// clang-format off
constexpr Glyph font[] = {
    {' ', {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
    {'0', {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}},
    {'1', {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'2', {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}},
    {'3', {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E}},
    {'4', {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}},
    {'5', {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E}},
    {'6', {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}},
    {'7', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
    {'8', {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}},
    {'9', {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}},
    {'A', {0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11}},
    {'B', {0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E}},
    {'C', {0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E}},
    {'D', {0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C}},
    {'E', {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F}},
    {'F', {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10}},
    {'G', {0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F}},
    {'H', {0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11}},
    {'I', {0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'J', {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C}},
    {'K', {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11}},
    {'L', {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F}},
    {'M', {0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11}},
    {'N', {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11}},
    {'O', {0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}},
    {'P', {0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10}},
    {'Q', {0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D}},
    {'R', {0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11}},
    {'S', {0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E}},
    {'T', {0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
    {'U', {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}},
    {'V', {0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04}},
    {'W', {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A}},
    {'X', {0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11}},
    {'Y', {0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04}},
    {'Z', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F}},
    {'.', {0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C}},
    {':', {0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00}},
    {'-', {0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00}},
    {'_', {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1F}},
    {'=', {0x00, 0x00, 0x1F, 0x00, 0x1F, 0x00, 0x00}},
    {'%', {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03}},
    {'/', {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00}},
    {'|', {0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
    {'(', {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}},
    {')', {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}},
    {'?', {0x0E, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04}},
};
// clang-format on

const Glyph& glyph(char c) {
  if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  for (const Glyph& g : font)
    if (g.c == c) return g;
  return font[std::size(font) - 1];  // '?'
}

/// A filled w x h rectangle at (x, y) (top-left), all in pixels, as squares of side `cell`
/// (w and h multiples of it): exact tiles, so a translucent colour blends once per pixel.
void fill(std::vector<Circle>& out, float x, float y, float w, float h, float cell, std::uint32_t rgba) {
  for (float cy = y; cy + cell <= y + h + 0.01f; cy += cell)
    for (float cx = x; cx + cell <= x + w + 0.01f; cx += cell) out.push_back({cx + cell / 2, cy + cell / 2, -cell / 2, rgba});
}

/// `v` with `digits` decimals and a '.' point under any locale (the font has no ',').
std::string fixed(double v, int digits) { return pacer::format_fixed(v, digits); }

constexpr std::uint32_t panel_rgba = 0x000000e0u;
constexpr std::uint32_t text_rgba = 0xf0f0f0ffu;
constexpr std::uint32_t good_rgba = 0x40d060ffu;
constexpr std::uint32_t late_rgba = 0xff4040ffu;
constexpr std::uint32_t target_rgba = 0x40c0ffffu;
constexpr std::uint32_t gpu_rgba = 0xffd020ffu;

}  // namespace

float Overlay::draw_text(std::vector<Circle>& out, float x, float y, std::string_view text, float scale,
                         std::uint32_t rgba) {
  const float half = scale / 2;
  for (char c : text) {
    const Glyph& g = glyph(c);
    for (std::size_t row = 0; row < g.rows.size(); ++row)
      for (int col = 0; col < 5; ++col)
        if (g.rows[row] & (0x10 >> col))
          out.push_back({x + static_cast<float>(col) * scale + half, y + static_cast<float>(row) * scale + half, -half,
                         rgba});
    x += 6 * scale;
  }
  return x;
}

void Overlay::add(const pacer::FrameRecord& r) {
  records_.push_back(r);
  while (records_.size() > history) records_.pop_front();
  policy_ = std::string{r.policy};
  ++since_stats_;
}

void Overlay::build(pacer::Nanos interval) {
  // The numbers: every 10 frames (and at the first), over the latest `history` frames.
  if (lines_.empty() || since_stats_ >= 10) {
    since_stats_ = 0;
    window_.assign(records_.begin(), records_.end());
    summary_ = window_.size() >= 2 ? pacer::summarize(window_) : pacer::Summary{};
    double gpu_sum = 0;
    int gpu_n = 0;
    for (std::size_t i = records_.size() >= 30 ? records_.size() - 30 : 0; i < records_.size(); ++i)
      if (records_[i].gpu) {
        gpu_sum += pacer::to_ms(*records_[i].gpu);
        ++gpu_n;
      }
    gpu_ms_ = gpu_n > 0 ? std::optional<double>{gpu_sum / gpu_n} : std::nullopt;
    lines_ = {"FPS " + fixed(summary_.average_fps, 1) + "  INTERVAL " + fixed(pacer::to_ms(interval), 2) + " MS",
              "POLICY " + (policy_.empty() ? std::string{"-"} : policy_),
              "P99 ANIM ERR " + fixed(summary_.anim_error_p99_ms, 3) + " MS",
              "STUTTERS " + std::to_string(summary_.stutters) + "  P99 FRAME " + fixed(summary_.interval_p99_ms, 1) + " MS",
              gpu_ms_ ? "GPU " + fixed(*gpu_ms_, 3) + " MS" : std::string{"GPU NA"}};
  }

  shapes_.clear();
  fill(shapes_, left, top, width, height, 16, panel_rgba);
  float y = top + 8;
  for (const std::string& line : lines_) {
    draw_text(shapes_, left + 8, y, line, 2, text_rgba);
    y += 18;
  }

  // The graph: one 4-pixel bar per frame, its height the time since the frame before was
  // shown; the scale's top is twice the interval (at least 33.3 ms). The target interval is
  // a blue line, each frame's GPU time a yellow mark. Bars are 4 x 4 squares: few instances
  // (the overlay's own GPU cost shows in ms_gpu; docs/overlay.md).
  const float gx = left + 8, gw = width - 16, gh = 64, gbase = top + height - 4;
  const double interval_ms = pacer::to_ms(interval);
  const double top_ms = std::max(2 * interval_ms, 33.3);
  const auto y_of = [&](double ms) { return gbase - static_cast<float>(std::min(ms / top_ms, 1.0)) * gh; };
  fill(shapes_, gx, gbase - gh, gw, gh, 8, 0x202830c0u);
  const std::size_t bars = static_cast<std::size_t>(gw / 4);
  const std::size_t n = std::min(records_.size(), bars + 1);
  for (std::size_t k = 1; k < n; ++k) {
    const pacer::FrameRecord& r = records_[records_.size() - n + k];
    const pacer::FrameRecord& prev = records_[records_.size() - n + k - 1];
    const double ms = pacer::to_ms(pacer::shown_time(r) - pacer::shown_time(prev));
    const float x = gx + static_cast<float>(bars - (n - 1) + k - 1) * 4 + 2;
    const bool late = interval_ms > 0 && ms > 1.5 * interval_ms;
    for (float yy = gbase - 2; yy > y_of(ms) - 1.0f; yy -= 4) shapes_.push_back({x, yy, -2, late ? late_rgba : good_rgba});
    if (r.gpu) shapes_.push_back({x, std::max(y_of(pacer::to_ms(*r.gpu)), gbase - gh + 1), -1, gpu_rgba});
  }
  if (interval_ms > 0)
    for (float x = gx + 1; x < gx + gw; x += 4) shapes_.push_back({x, y_of(interval_ms), -1, target_rgba});
}

}  // namespace engine
