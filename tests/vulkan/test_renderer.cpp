// renderer::Renderer in a process: one at a time (volk's function tables are global), and
// the next one can be made once the first is gone; its messages go to the logger the host
// gave engine::set_logger. Headless: no window needed.
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>

#include "engine/log.hpp"
#include "renderer/log.hpp"
#include "renderer/renderer.hpp"

namespace {

renderer::RendererConfig headless_64() {
  renderer::RendererConfig config;
  config.headless = true;
  config.width = 64;
  config.height = 64;
  return config;
}

}  // namespace

TEST(Renderer, ASecondWhileOneLivesIsRefusedAndTheFirstDrawsOn) {
  const renderer::RendererConfig config = headless_64();
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

// RendererConfig::fault, in process: frame 2's fence wait reports a lost device; a malformed
// value is refused at create. The library itself reads no FP_FAULT (the samples do): with the
// variable set and the config empty, nothing is armed.
TEST(Renderer, AFaultFromItsConfigIsReportedAtItsFrameAndTheEnvironmentArmsNone) {
  renderer::RendererConfig config = headless_64();
  config.fault = "device_lost@2";
  {
    auto gpu = renderer::Renderer::create(config, nullptr);
    for (int i = 0; i < 2; ++i) {
      ASSERT_TRUE(gpu->begin_frame());
      gpu->draw({}, 0x202020ffu);
      gpu->present();
    }
    try {
      (void)gpu->begin_frame();
      ADD_FAILURE() << "frame 2 began although its fault was armed";
    } catch (const renderer::Error& e) {
      EXPECT_NE(std::string{e.what()}.find("VK_ERROR_DEVICE_LOST"), std::string::npos) << e.what();
    }
  }
  config.fault = "device_lost@soon";
  try {
    auto bad = renderer::Renderer::create(config, nullptr);
    ADD_FAILURE() << "a malformed fault was accepted";
  } catch (const renderer::Error& e) {
    EXPECT_NE(std::string{e.what()}.find("got 'device_lost@soon'"), std::string::npos) << e.what();
  }
  config.fault.clear();
  ::setenv("FP_FAULT", "device_lost@0", 1);
  {
    auto gpu = renderer::Renderer::create(config, nullptr);
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(gpu->begin_frame());
      gpu->draw({}, 0x202020ffu);
      gpu->present();
    }
  }
  ::unsetenv("FP_FAULT");
}

// A host that hands the engine its logger after the engine made its own "framepacer" one
// (engine::logger() on first use) gets the renderer's messages there too, not in "framepacer".
TEST(Renderer, LogsThroughTheLoggerTheHostGaveTheEngine) {
  std::ostringstream own_text;
  std::ostringstream host_text;
  auto host = std::make_shared<spdlog::logger>("renderer_test_host",
                                               std::make_shared<spdlog::sinks::ostream_sink_mt>(host_text));
  host->set_level(spdlog::level::info);
  {
    // The engine's logger gets a sink to read, and both loggers are as before when this ends,
    // whatever fails (the other tests of this process log through them too).
    struct Restore {
      ~Restore() {
        engine::set_logger(nullptr);
        engine::logger()->sinks().pop_back();
      }
    } restore;
    engine::logger()->sinks().push_back(std::make_shared<spdlog::sinks::ostream_sink_mt>(own_text));
    engine::set_logger(host);
    EXPECT_EQ(renderer::logger(), host);
    EXPECT_NE(renderer::Renderer::create(headless_64(), nullptr), nullptr);
  }
  EXPECT_EQ(renderer::logger(), spdlog::get("framepacer"));
  EXPECT_NE(host_text.str().find("renderer: device '"), std::string::npos) << host_text.str();
  EXPECT_EQ(own_text.str().find("renderer: device '"), std::string::npos) << own_text.str();
}
