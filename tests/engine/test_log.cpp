// engine/log.hpp and renderer/log.hpp: which logger each writes to, and that a host's
// engine::set_logger reaches the renderer too (no Vulkan here: the renderer's logger alone).
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <sstream>

#include "engine/log.hpp"
#include "renderer/log.hpp"

TEST(Log, TheHostsLoggerReachesTheRendererAndNullptrUndoesIt) {
  const auto own = engine::logger();  // made on first use (or found) as "framepacer"
  ASSERT_EQ(own, spdlog::get("framepacer"));
  EXPECT_EQ(renderer::logger(), own);  // the renderer finds the engine's by name

  std::ostringstream text;
  auto host = std::make_shared<spdlog::logger>("log_test_host", std::make_shared<spdlog::sinks::ostream_sink_mt>(text));
  engine::set_logger(host);
  EXPECT_EQ(engine::logger(), host);
  EXPECT_EQ(renderer::logger(), host);
  renderer::logger()->warn("swapchain recreated");
  EXPECT_NE(text.str().find("swapchain recreated"), std::string::npos);

  engine::set_logger(nullptr);
  EXPECT_EQ(engine::logger(), own);
  EXPECT_EQ(renderer::logger(), own);
}

TEST(Log, TheRendererAloneCanBeGivenALogger) {
  auto host = std::make_shared<spdlog::logger>("log_test_renderer_only");
  renderer::set_logger(host);
  EXPECT_EQ(renderer::logger(), host);
  EXPECT_NE(engine::logger(), host);  // the engine's is its own setting
  renderer::set_logger(nullptr);
  EXPECT_EQ(renderer::logger(), spdlog::get("framepacer"));
}

TEST(Log, AfterSpdlogIsShutDownTheRendererWritesToTheLastFramepacerLoggerFound) {
  // A host that ends spdlog (drop_all, shutdown) before the renderer's last message, a
  // validation report at teardown say: that message goes to the "framepacer" logger the
  // renderer last found, the engine's, rather than through null. (A renderer that never found
  // one goes to a logger with no sinks: tests/docs/example_renderer_log_hpp.cpp.)
  const auto own = engine::logger();
  ASSERT_EQ(renderer::logger(), own);
  const auto default_before = spdlog::default_logger();
  spdlog::drop_all();  // the registry emptied and the default logger reset, as shutdown does
  ASSERT_EQ(spdlog::get("framepacer"), nullptr);
  ASSERT_EQ(spdlog::default_logger(), nullptr);
  const auto fallback = renderer::logger();
  ASSERT_NE(fallback, nullptr);
  EXPECT_EQ(fallback, own);
  std::ostringstream text;
  own->sinks().push_back(std::make_shared<spdlog::sinks::ostream_sink_mt>(text));
  fallback->error("vulkan: a late validation message");
  own->sinks().pop_back();
  EXPECT_NE(text.str().find("a late validation message"), std::string::npos);
  spdlog::register_logger(own);  // as before, for the tests after this one in this process
  spdlog::set_default_logger(default_before);
  EXPECT_EQ(renderer::logger(), own);
}

TEST(Log, AHostThatDropsOrReplacesFramepacerLeavesTheEngineAndTheRendererTogether) {
  // The renderer looks "framepacer" up in spdlog's registry on each message; the engine kept
  // the logger it first found, so a host's spdlog::drop("framepacer") left the renderer on
  // spdlog's default logger and the engine on its own.
  const auto own = engine::logger();
  EXPECT_EQ(renderer::logger(), own);
  spdlog::drop("framepacer");
  // Before the engine's next message the renderer stays on the logger it last found there
  // (until commit 611e3e6 it went to spdlog's default logger until then).
  EXPECT_EQ(renderer::logger(), own);
  EXPECT_EQ(engine::logger(), own);  // registered again...
  EXPECT_EQ(spdlog::get("framepacer"), own);
  EXPECT_EQ(renderer::logger(), own);  // ...so the renderer finds it too

  // A host's own logger registered under the name is the one for both.
  std::ostringstream text;
  auto mine = std::make_shared<spdlog::logger>("framepacer", std::make_shared<spdlog::sinks::ostream_sink_mt>(text));
  spdlog::drop("framepacer");
  spdlog::register_logger(mine);
  EXPECT_EQ(engine::logger(), mine);
  EXPECT_EQ(renderer::logger(), mine);
  engine::logger()->info("engine line");
  renderer::logger()->info("renderer line");
  EXPECT_NE(text.str().find("engine line"), std::string::npos);
  EXPECT_NE(text.str().find("renderer line"), std::string::npos);

  spdlog::drop("framepacer");  // as before, for the tests after this one in this process
  spdlog::register_logger(own);
  EXPECT_EQ(engine::logger(), own);
}
