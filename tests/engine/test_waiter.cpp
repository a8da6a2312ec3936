// engine::PreciseWaiter beside the host's threads: the timer slack it lowers for its sleeps
// is the thread's own again after them (a thread's slack passes to the threads it makes).
#include <gtest/gtest.h>

#include <chrono>

#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include "engine/clock.hpp"
#include "engine/waiter.hpp"

TEST(PreciseWaiter, GivesTheThreadItsOwnTimerSlackBack) {
#if defined(__linux__)
  const int before = prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL);
  ASSERT_EQ(prctl(PR_SET_TIMERSLACK, 123'456UL, 0UL, 0UL, 0UL), 0);
  engine::SteadyClock clock;
  engine::PreciseWaiter waiter{clock};
  EXPECT_EQ(prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL), 123'456) << "making a waiter changes nothing";
  waiter.wait_until(clock.now() + std::chrono::milliseconds{10});  // past the 1 ms margin: a sleep
  EXPECT_GT(waiter.stats().sleep.count(), 0) << "the wait slept (the path under test)";
  EXPECT_EQ(prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL), 123'456);
  prctl(PR_SET_TIMERSLACK, static_cast<unsigned long>(before), 0UL, 0UL, 0UL);
#else
  GTEST_SKIP() << "timer slack is Linux's";
#endif
}
