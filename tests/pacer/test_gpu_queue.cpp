// The simulator's GPU queue (pacer/gpu_queue.hpp): work in order, fences frames_in_flight
// back, times reported once done. Virtual time only.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "pacer/gpu_queue.hpp"

using namespace pacer;
using namespace pacer::literals;

TEST(GpuQueue, WorkRunsInOrderAndFencesWaitTwoFramesBack) {
  GpuQueue gpu{2};
  EXPECT_EQ(gpu.acquire(0_ms), 0_ms);              // nothing in flight
  EXPECT_EQ(gpu.submit(0, 1_ms, 10_ms), 11_ms);    // frame 0: 1..11
  EXPECT_EQ(gpu.acquire(2_ms), 2_ms);              // one frame in flight: a slot is free
  EXPECT_EQ(gpu.submit(1, 3_ms, 10_ms), 21_ms);    // frame 1 waits for frame 0's work
  EXPECT_EQ(gpu.acquire(4_ms), 11_ms);             // frame 2's slot: frame 0's fence
  EXPECT_EQ(gpu.ready(12_ms), 21_ms);              // the latest frame's work ends at 21
  EXPECT_EQ(gpu.ready(30_ms), 30_ms);
  EXPECT_EQ(gpu.submit(2, 12_ms, -1_ms), 21_ms);   // a negative cost counts as none

  std::vector<std::pair<std::int64_t, Nanos>> seen;
  const auto sink = [&](std::int64_t f, Nanos t) { seen.emplace_back(f, t); };
  gpu.poll(20_ms, sink);  // frame 0 done at 11, frame 1 not yet
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], std::make_pair(std::int64_t{0}, 10_ms));
  gpu.poll(21_ms, sink);  // frames 1 and 2, once each, in order
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[1], std::make_pair(std::int64_t{1}, 10_ms));
  EXPECT_EQ(seen[2], std::make_pair(std::int64_t{2}, 0_ms));
  gpu.poll(50_ms, sink);
  EXPECT_EQ(seen.size(), 3u);
  // Reported frames still hold their fences: frame 3's slot waits for frame 1's.
  EXPECT_EQ(gpu.acquire(0_ms), 21_ms);
}
