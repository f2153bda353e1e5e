#include "allocsim/random/random_stream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "allocsim/random/random_transforms.h"
#include "testing/statistical_assertions.h"

namespace allocsim {
namespace {

TEST(RandomStream, SameKeySameNumbersDifferentKeyDifferent) {
  RandomStream a({1, 2, 3}, 0), b({1, 2, 3}, 0), c({1, 2, 4}, 0), d({1, 2, 3}, 1);
  bool differs_c = false, differs_d = false;
  for (int i = 0; i < 100; ++i) {
    const auto x = a.next_u64();
    EXPECT_EQ(x, b.next_u64());
    differs_c |= x != c.next_u64();
    differs_d |= x != d.next_u64();
  }
  EXPECT_TRUE(differs_c);
  EXPECT_TRUE(differs_d);
}

TEST(RandomStream, UniformIsInHalfOpenUnitInterval) {
  RandomStream s({7, 7, 7}, 3);
  for (int i = 0; i < 100000; ++i) {
    const double u = s.next_uniform();
    ASSERT_GT(u, 0.0);
    ASSERT_LE(u, 1.0);
  }
}

// Mean of n Exp(mean m) draws has standard error m/sqrt(n); within kSigmas
// (two-sided false-alarm probability kSigmasFalseAlarmRate) with this fixed seed.
TEST(RandomStream, ExponentialMeanAndGeometricMean) {
  RandomStream s({11, 0, 0}, 0);
  const int n = 200000;
  const double mean = 4096;
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += exponential_from_uniform(s.next_uniform(), mean);
  EXPECT_TRUE(testing::within_sigmas(sum / n, mean, testing::mean_standard_error(mean * mean, n)));

  // Geometric on {1,2,...} with p: mean 1/p, sd sqrt(1-p)/p.
  const double p = 1.0 / 100;
  double gsum = 0;
  for (int i = 0; i < n; ++i) gsum += static_cast<double>(geometric_trials_from_uniform(s.next_uniform(), p));
  EXPECT_TRUE(testing::within_sigmas(gsum / n, 1 / p, testing::mean_standard_error((1 - p) / (p * p), n)));
}

TEST(RandomTransforms, EdgeValues) {
  EXPECT_EQ(exponential_from_uniform(1.0, 10.0), 0.0);
  EXPECT_EQ(geometric_trials_from_uniform(1.0, 0.5), 1u);
  EXPECT_EQ(geometric_trials_from_uniform(0.3, 1.0), 1u);
  // u = 0.25, p = 0.5: floor(ln 0.25 / ln 0.5) + 1 = 3.
  EXPECT_EQ(geometric_trials_from_uniform(0.25, 0.5), 3u);
  // The smallest uniform with a tiny p saturates instead of overflowing: the
  // failures, ln(2^-53) / ln(1 - 1e-300) ~ 3.7e301, are far past 2^63.
  EXPECT_EQ(geometric_trials_from_uniform(0x1.0p-53, 1e-300), std::numeric_limits<std::uint64_t>::max());
  // A large count that fits is exact, not saturated: p = 1/2, u = 2^-62 gives
  // floor(62) + 1 = 63 trials.
  EXPECT_EQ(geometric_trials_from_uniform(0x1.0p-62, 0.5), 63u);
}

TEST(StreamId, DistinctForNeighbours) {
  EXPECT_NE(stream_id(0, 0), stream_id(0, 1));
  EXPECT_NE(stream_id(0, 1), stream_id(1, 0));
}

}  // namespace
}  // namespace allocsim
