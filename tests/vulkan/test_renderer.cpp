// renderer::Renderer in a process: one at a time (volk's function tables are global), and
// the next one can be made once the first is gone. Headless: no window needed.
#include <gtest/gtest.h>

#include <string>

#include "renderer/renderer.hpp"

TEST(Renderer, ASecondWhileOneLivesIsRefusedAndTheFirstDrawsOn) {
  renderer::RendererConfig config;
  config.headless = true;
  config.width = 64;
  config.height = 64;
  auto first = renderer::Renderer::create(config, nullptr);
  ASSERT_NE(first, nullptr);
  try {
    auto second = renderer::Renderer::create(config, nullptr);
    ADD_FAILURE() << "a second Renderer was made while the first lives";
  } catch (const renderer::Error& e) {
    EXPECT_NE(std::string{e.what()}.find("another Renderer is alive"), std::string::npos) << e.what();
  }
  // The first is untouched: it draws and presents on.
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(first->begin_frame());
    first->draw({}, 0x202020ffu);
    first->present();
  }
  first.reset();
  auto next = renderer::Renderer::create(config, nullptr);
  EXPECT_NE(next, nullptr);
}
