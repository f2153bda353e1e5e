// scalene (sampler/systems/scalene/): the ThresholdSampler worked by hand, the order
// of allocations and frees it sees, one threshold per thread, the malloc and net
// estimators on a trace with free samples, and the attribution of a loop's growth
// against the closed form of scalene.h (its three cases derived here again).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "allocsim/engine/scheme_replay.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/scalene/scalene.h"
#include "testing/traces.h"

namespace allocsim {
namespace {

// Per stack: the sum of each estimator's registers (bytes, net_bytes) over one replay.
struct StackSums {
  std::vector<double> bytes, net;
};

StackSums sums_by_stack(const Trace& trace, std::uint64_t window) {
  const auto scheme = create_scheme("scalene", {{"rate", window}}, "$");
  SchemeReplay replay(*scheme, trace);
  replay.replay({1, 1, 0});
  StackSums sums{std::vector<double>(trace.stack_count, 0.0), std::vector<double>(trace.stack_count, 0.0)};
  for (std::size_t o = 0; o < replay.observations().size(); ++o) {
    const std::uint32_t stack = trace.stack[replay.observations()[o].event];
    sums.bytes[stack] += replay.registers(o)[0];
    sums.net[stack] += replay.registers(o)[1];
  }
  return sums;
}

// The loop of scalene.h: allocation 2j is line A's a bytes, freed one tick later
// (before B's allocation at that tick), allocation 2j + 1 line B's b bytes, kept.
Trace loop_trace(std::uint64_t a, std::uint64_t b, std::uint64_t iterations) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t j = 0; j < iterations; ++j) {
    sizes.push_back(a);
    sizes.push_back(b);
  }
  Trace trace = testing::make_trace(sizes);
  for (std::size_t i = 0; i < trace.size(); ++i) {
    trace.stack.mutable_data()[i] = static_cast<std::uint32_t>(i % 2);
    if (i % 2 == 0) trace.free_time.mutable_data()[i] = i + 1;
  }
  trace.stack_count = 2;
  return trace;
}

// W = 10: 4 then 6 reach I = 10 >= D + W (value 10, counters reset). After 3 freed,
// 12 more leave I = 12 < D + W = 13, one more reaches it: value I - D = 10. After 9
// freed, 18 leave I = 18 < 19 and one more fires 10 again; 25 freed from zero fire a
// free sample of 25.
TEST(ScaleneThreshold, IncrementAndDecrementByHand) {
  ScaleneThreshold t(10);
  EXPECT_EQ(t.increment(4), 0u);
  EXPECT_EQ(t.increment(6), 10u);
  EXPECT_EQ(t.decrement(3), 0u);
  EXPECT_EQ(t.increment(12), 0u);
  EXPECT_EQ(t.increment(1), 10u);
  EXPECT_EQ(t.decrement(9), 0u);
  EXPECT_EQ(t.increment(18), 0u);
  EXPECT_EQ(t.increment(1), 10u);
  EXPECT_EQ(t.decrement(25), 25u);
}

// Times 0, 1, 1, 2, 3 with frees: #0 at 1 (before #1 and #2, stamped 1), #2 at 1
// (lifetime 0: after its own allocation, before #3), #1 at 3 (before #4), #3 never,
// #4 at 3 (after its allocation, at the end).
TEST(ScaleneThreshold, FreesComeBeforeTheAllocationsOfTheirTickButAfterTheirOwn) {
  Trace trace = testing::make_trace({1, 1, 1, 1, 1});
  const std::vector<std::uint64_t> time = {0, 1, 1, 2, 3}, free = {1, 3, 1, kNeverFreed, 3};
  for (std::size_t i = 0; i < 5; ++i) {
    trace.time.mutable_data()[i] = time[i];
    trace.free_time.mutable_data()[i] = free[i];
  }
  const std::uint64_t f = kScaleneFree;
  EXPECT_EQ(scalene_event_order(trace), (std::vector<std::uint64_t>{0, f | 0, 1, 2, f | 2, 3, f | 1, 4, f | 4}));
}

// Each thread has its own threshold: 60-byte allocations alternating between two
// threads reach W = 100 on each thread's second one (events 2 and 3, value 120),
// where one shared counter would have fired at events 1 and 3.
TEST(ScaleneThreshold, OneThresholdPerThread) {
  const Trace trace = testing::make_trace({60, 60, 60, 60}, {0, 1, 0, 1});
  const auto scheme = create_scheme("scalene", {{"rate", 100}}, "$");
  SchemeReplay replay(*scheme, trace);
  replay.replay({1, 1, 0});
  ASSERT_EQ(replay.observations().size(), 2u);
  EXPECT_EQ(replay.observations()[0].event, 2u);
  EXPECT_EQ(replay.observations()[1].event, 3u);
  EXPECT_EQ(replay.observations()[0].weight, 120.0);
}

// W = 100, A allocates and frees 150 bytes, B keeps 10, 5 times. Iteration 1: A's
// malloc fires +150, its free -150, B leaves the counters at 10. Each later one: A
// fires +160 and -150. So A's malloc records sum to 150 + 4 x 160 = 790 (n_malloc_mb)
// and its net to 40; B fires nothing though it grew by 50; 10 stay in the counters.
TEST(ScaleneEstimators, MallocRecordsAndNetOnALoopWithFreeSamples) {
  const StackSums sums = sums_by_stack(loop_trace(150, 10, 5), 100);
  EXPECT_EQ(sums.bytes[0], 790.0);
  EXPECT_EQ(sums.net[0], 40.0);
  EXPECT_EQ(sums.bytes[1], 0.0);
  EXPECT_EQ(sums.net[1], 0.0);
}

// The closed form of scalene.h, W = 1 MiB, b = 40000: m = ceil(W/b) = 27,
// r = W - 26 b = 8576. After a sample fired by B the counters start an iteration at
// x = j b; A's check x + a >= W can only succeed at j = m - 1 (a < b), i.e. iff
// a >= r. After one fired by A they start at b - a and B fires first iff
// (j + 2) b - a >= W for some j < m - 1, i.e. iff a <= m b - W = b - r; a cycle A, B
// then carries (m - 1) b + a and m b - a, B's share (m b - a)/((2m - 1) b). Over
// k = 5000 iterations B's net estimate is within 2W of share k b (the counters hold
// under W at the end and a partial cycle under W more), and the records sum to k b
// less what the counters hold, 0 .. W - 1. Exact, no sampling.
TEST(ScaleneAttribution, LoopGrowthSplitsAsTheClosedForm) {
  constexpr std::uint64_t kWindow = 1048576, kB = 40000, kIterations = 5000;
  constexpr std::uint64_t m = (kWindow + kB - 1) / kB, r = kWindow - (m - 1) * kB;
  static_assert(m == 27 && r == 8576);
  const double growth = static_cast<double>(kB * kIterations);
  for (const std::uint64_t a :
       {std::uint64_t{1000}, r - 1, r, std::uint64_t{20000}, kB - r, kB - r + 1, kB, std::uint64_t{3} * kWindow}) {
    const double share =
        a < r         ? 1.0
        : a <= kB - r ? (static_cast<double>(m * kB) - static_cast<double>(a)) / static_cast<double>((2 * m - 1) * kB)
                      : 0.0;
    const StackSums sums = sums_by_stack(loop_trace(a, kB, kIterations), kWindow);
    EXPECT_LE(std::fabs(sums.net[1] - share * growth), 2.0 * kWindow) << "a = " << a;
    const double held = growth - (sums.net[0] + sums.net[1]);
    EXPECT_GE(held, 0.0) << "a = " << a;
    EXPECT_LT(held, static_cast<double>(kWindow)) << "a = " << a;
    EXPECT_EQ(sums.net[1], sums.bytes[1]) << "B frees nothing";
  }
}

}  // namespace
}  // namespace allocsim
