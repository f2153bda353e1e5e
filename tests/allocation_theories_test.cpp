// Scheme::theory: the per-allocation pieces over a whole trace (including those
// that read per-trace data, Go's tiny-allocator sizes and optimal-size-class's
// design) and the group metrics EstimatorTheory::of_group makes of their sums.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "allocsim/sampler/registry.h"
#include "test_support.h"

namespace allocsim {
namespace {

// Go with the tiny allocator at R = 4096: 8 opens a block (counted 16 bytes), 4 and 3
// fit into it (never counted), 15 does not fit and opens the next one.
TEST(AllocationTheories, GoTinyBlocksFollowTheTraceOrder) {
  const Trace trace = testing::make_trace({8, 4, 3, 15});
  const auto scheme = testing::create_scheme("go", {{"rate", 4096}, {"tiny", true}});
  const EstimatorTheory count = scheme->theory(1);
  ASSERT_TRUE(count.per_allocation());
  const std::vector<AllocationTheory> pieces = count.all_allocations(trace);
  ASSERT_EQ(pieces.size(), trace.size());
  // An opener is sampled with 1 - e^(-16/R): ln P(none) = -16/R, unbiased count.
  for (std::size_t i : {0u, 3u}) {
    EXPECT_DOUBLE_EQ(pieces[i].log_p_none, -16.0 / 4096) << i;
    EXPECT_NEAR(pieces[i].bias, 0.0, 1e-12) << i;
  }
  // The others are never seen: ln P(none) = 0, the whole allocation missed.
  for (std::size_t i : {1u, 2u}) {
    EXPECT_EQ(pieces[i].log_p_none, 0.0) << i;
    EXPECT_EQ(pieces[i].bias, -1.0) << i;
  }
  EXPECT_FALSE(scheme->theory(2).per_allocation());  // merge-then-scale: no closed form
}

// The theory is visited in blocks of kBlock allocations, and Go's tiny blocks carry
// across them. After a 20-byte allocation (not tiny, always counted), 1-byte ones fill
// a 16-byte block each: allocations 1, 17, 33, ... open one, the other fifteen of each
// sixteen are never counted. kBlock (a multiple of 16) falls inside the block opened at
// kBlock - 15: resetting the tiny state at a visited block's start would make it open one.
TEST(AllocationTheories, GoTinyBlocksCarryAcrossVisitedBlocks) {
  static_assert(EstimatorTheory::kBlock % 16 == 0);
  std::vector<std::uint64_t> sizes(2 * EstimatorTheory::kBlock + 10, 1);
  sizes[0] = 20;
  const Trace trace = testing::make_trace(sizes);
  const auto scheme = testing::create_scheme("go", {{"rate", 4096}, {"tiny", true}});
  std::vector<std::size_t> firsts;
  std::vector<AllocationTheory> pieces;
  scheme->theory(1).allocations(trace, [&](std::size_t first, std::span<const AllocationTheory> block) {
    firsts.push_back(first);
    EXPECT_EQ(first, pieces.size());
    pieces.insert(pieces.end(), block.begin(), block.end());
  });
  EXPECT_EQ(firsts, (std::vector<std::size_t>{0, EstimatorTheory::kBlock, 2 * EstimatorTheory::kBlock}));
  ASSERT_EQ(pieces.size(), trace.size());
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const bool counted = i == 0 || i % 16 == 1;
    EXPECT_EQ(pieces[i].log_p_none < 0, counted) << i;
  }
}

// Without a group function the metrics are the sums' bias and variance and
// P(>= 1 sample) = 1 - exp(sum ln P(none)); without per-allocation pieces, none.
TEST(AllocationTheories, GroupMetricsComeFromTheSums) {
  const auto jemalloc = testing::create_scheme("jemalloc", nlohmann::json::object());
  const AllocationTheory sums{-2.0, 9.0, std::log(0.25)};
  const TheoryValues from_sums = jemalloc->theory(0).of_group({}, sums);
  EXPECT_EQ(from_sums.bias, -2.0);
  EXPECT_EQ(from_sums.var, 9.0);
  EXPECT_DOUBLE_EQ(*from_sums.p_any_sample, 0.75);
  const TheoryValues none = jemalloc->theory(2).of_group({}, sums);
  EXPECT_FALSE(none.bias || none.var || none.p_any_sample);
}

// The Poisson reference's bytes estimator has no per-allocation pieces but a
// closed form of the group's bytes: n ~ Poisson(S/T), T n unbiased with variance T S.
TEST(AllocationTheories, PoissonBytesTheoryReadsTheGroupTruth) {
  const auto poisson = testing::create_scheme("poisson", {{"rate", 100}});
  const EstimatorTheory bytes = poisson->theory(0);
  EXPECT_FALSE(bytes.per_allocation());
  GroupTotals truth;
  truth.requested_bytes = 5000;
  const TheoryValues values = bytes.of_group(truth, {});
  ASSERT_TRUE(values.bias && values.var && values.p_any_sample);
  EXPECT_NEAR(*values.bias, 0.0, 1e-9);
  EXPECT_NEAR(*values.var, 100.0 * 5000, 1e-6 * 100 * 5000);
  EXPECT_NEAR(*values.p_any_sample, -std::expm1(-50.0), 1e-12);
}

}  // namespace
}  // namespace allocsim
