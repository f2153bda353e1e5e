// The optimal design's inputs from a trace (design/size_class_demand.h): the
// distinct sizes ascending, each allocation's class, and c_Z = Z^2 sum w_i and a_Z
// summed in allocation order, checked against their definition written out the
// slow way (a sort of every allocation's size and a search per allocation).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "allocsim/design/size_class_demand.h"

namespace allocsim {
namespace {

TEST(SizeClassDemand, MatchesItsDefinitionOnSizesInAnyOrder) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::uint64_t> size(1, 300);
  std::uniform_real_distribution<double> weight(0.0, 2.0);
  std::vector<std::uint64_t> measured(5000);
  std::vector<double> weights(measured.size());
  for (std::size_t i = 0; i < measured.size(); ++i) {
    // Some sizes far apart, so that first sight and size order differ.
    measured[i] = i % 7 == 0 ? (1ull << 40) - size(rng) : size(rng);
    weights[i] = weight(rng);
  }
  const SizeClassDemand demand = size_class_demand(measured, weights);

  std::vector<std::uint64_t> sizes = measured;
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  ASSERT_EQ(demand.sizes, sizes);
  std::vector<double> cost(sizes.size(), 0.0), allocations(sizes.size(), 0.0);
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const auto z = static_cast<std::size_t>(std::lower_bound(sizes.begin(), sizes.end(), measured[i]) - sizes.begin());
    ASSERT_EQ(demand.class_of[i], z) << "allocation " << i;
    const double s = static_cast<double>(measured[i]);
    cost[z] += weights[i] * s * s;
    allocations[z] += 1;
  }
  for (std::size_t z = 0; z < sizes.size(); ++z) {
    // The same sums in the same order: equal to the last bit.
    EXPECT_EQ(demand.cost[static_cast<Eigen::Index>(z)], cost[z]) << "class " << z;
    EXPECT_EQ(demand.allocations[static_cast<Eigen::Index>(z)], allocations[z]) << "class " << z;
  }
}

TEST(SizeClassDemand, AnEmptyTraceHasNoClasses) {
  const SizeClassDemand demand = size_class_demand({}, {});
  EXPECT_TRUE(demand.sizes.empty());
  EXPECT_EQ(demand.cost.size(), 0);
  EXPECT_TRUE(demand.class_of.empty());
}

}  // namespace
}  // namespace allocsim
