// Entry intervals, detection limits, the pairwise test and the resampler, each
// against its closed form (no Monte Carlo except where stated, with its bound).
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

#include "allocsim/profile/entry_interval.h"
#include "allocsim/profile/pairwise.h"
#include "allocsim/profile/rank_stability.h"
#include "allocsim/util/error.h"
#include "testing/statistical_assertions.h"
#include "testing/statistical_bounds.h"

namespace allocsim::profile {
namespace {

const SamplingModel kGo{ModelKind::per_allocation_exponential, 65536, "go"};
const SamplingModel kPoisson{ModelKind::poisson_bytes, 65536, "heapprofd"};

// P(K >= k) and P(K <= k) for K ~ Binomial(n, p), straight from Boost's binomial.
double at_least(double k, double n, double p) {
  if (k == 0) return 1.0;
  if (k > n) return 0.0;
  return boost::math::cdf(boost::math::complement(boost::math::binomial_distribution<>(n, p), k - 1));
}
double at_most(double k, double n, double p) {
  if (k >= n) return 1.0;
  return boost::math::cdf(boost::math::binomial_distribution<>(n, p), k);
}

TEST(ProfileInterval, BinomialBoundsAreTheClopperPearsonEndsInN) {
  const double tail = 0.025;
  for (const double size : {64.0, 4096.0, 60000.0}) {
    const double p = sample_probability(kGo, size);
    for (const double k : {0.0, 1.0, 2.0, 5.0, 30.0, 200.0}) {
      const EntryInterval ci = entry_interval(kGo, k, size, 0.95, false);
      // lower: the first n whose chance of k or more samples exceeds a/2.
      if (k > 0) {
        EXPECT_GT(at_least(k, ci.objects_lower, p), tail) << size << " " << k;
        EXPECT_LE(at_least(k, ci.objects_lower - 1, p), tail) << size << " " << k;
      } else {
        EXPECT_EQ(ci.objects_lower, 0);
      }
      // upper: the last n whose chance of k or fewer samples exceeds a/2.
      EXPECT_GT(at_most(k, ci.objects_upper, p), tail) << size << " " << k;
      EXPECT_LE(at_most(k, ci.objects_upper + 1, p), tail) << size << " " << k;
      EXPECT_DOUBLE_EQ(ci.bytes_upper, ci.objects_upper * size);
    }
  }
}

// Exact coverage of the binomial interval at true n: the sum of the binomial
// probabilities of the k whose interval holds n.
double binomial_coverage(double n, double size, double level) {
  const double p = sample_probability(kGo, size);
  const boost::math::binomial_distribution<> samples(n, p);
  double covered = 0;
  for (double k = 0; k <= n; ++k) {
    const EntryInterval ci = entry_interval(kGo, k, size, level, false);
    if (ci.objects_lower <= n && n <= ci.objects_upper) covered += boost::math::pdf(samples, k);
  }
  return covered;
}

TEST(ProfileInterval, BinomialCoverageIsAtLeastTheLevelForEveryN) {
  for (const double size : {512.0, 16384.0, 65536.0}) {
    for (const double n : {1.0, 3.0, 10.0, 37.0, 100.0, 400.0}) {
      EXPECT_GE(binomial_coverage(n, size, 0.95), 0.95 - 1e-12) << size << " " << n;
      EXPECT_GE(binomial_coverage(n, size, 0.5), 0.5 - 1e-12) << size << " " << n;
    }
  }
}

TEST(ProfileInterval, GarwoodCoverageIsAtLeastTheLevel) {
  for (const double mean : {0.1, 1.0, 3.7, 20.0, 150.0}) {
    const boost::math::poisson_distribution<> samples(mean);
    double covered = 0;
    for (double k = 0; k < mean + 20 * std::sqrt(mean) + 20; ++k) {
      const EntryInterval ci = entry_interval(kPoisson, k, 100, 0.95, false);
      const double bytes = mean * kPoisson.rate;
      if (ci.bytes_lower <= bytes && bytes <= ci.bytes_upper) covered += boost::math::pdf(samples, k);
    }
    EXPECT_GE(covered, 0.95 - 1e-9) << mean;
  }
  // k = 0: the upper end is -T ln(a/2), the bytes that show no sample with chance a/2.
  EXPECT_NEAR(entry_interval(kPoisson, 0, 100, 0.95, false).bytes_upper, -65536 * std::log(0.025), 1e-6);
}

TEST(ProfileInterval, CertainSamplingGivesAPointAndMixedSizesSayApproximate) {
  const EntryInterval big = entry_interval(kGo, 20, 1 << 30, 0.95, false);
  EXPECT_EQ(big.objects_lower, 20);
  EXPECT_EQ(big.objects_upper, 20);
  EXPECT_NE(entry_interval(kGo, 3, 700, 0.95, true).method.find("approximate"), std::string::npos);
  EXPECT_THROW(entry_interval(kGo, 1.5, 64, 0.95, false), InputError);
  EXPECT_THROW(entry_interval(kGo, 1, 64, 1.0, false), InputError);
  EXPECT_THROW(entry_interval(kGo, 1, 0, 0.95, false), InputError);
}

TEST(ProfileInterval, DetectionLimitsAreWhereTheMissChanceIsMet) {
  for (const SamplingModel& model : {kGo, kPoisson}) {
    for (const double chance : {0.5, 0.95}) {
      const double bytes = detection_limit_bytes(model, chance, 64);
      EXPECT_NEAR(probability_no_sample(model, bytes / 64, 64), 1 - chance, 1e-12);
    }
  }
  const SamplingModel fixed{ModelKind::per_allocation_fixed, 100, "per-allocation"};
  const double objects = detection_limit_bytes(fixed, 0.95, 1);
  EXPECT_LE(probability_no_sample(fixed, objects, 1), 0.05);
  EXPECT_GT(probability_no_sample(fixed, objects - 1, 1), 0.05);
}

HeapProfile two_entries(double first_samples, double second_samples, double size) {
  HeapProfile profile;
  profile.model = kGo;
  for (const double k : {first_samples, second_samples}) {
    ProfileEntry entry;
    entry.samples = k;
    entry.object_size = size;
    entry.estimate_bytes = k * size / sample_probability(kGo, size);
    profile.entries.push_back(entry);
  }
  return profile;
}

TEST(ProfileInterval, PairwiseTestSeparatesSkewFromNoise) {
  // Equal samples of equal sizes: nothing to see.
  EXPECT_DOUBLE_EQ(equal_bytes_p_value(two_entries(40, 40, 64), 0, 1), 1.0);
  // 78 against 21 samples: two-sided binomial(99, 1/2) tail, far below 1e-6.
  const double skew = equal_bytes_p_value(two_entries(78, 21, 64), 0, 1);
  const boost::math::binomial_distribution<> half(99, 0.5);
  EXPECT_NEAR(skew, 2 * boost::math::cdf(half, 21.0), 1e-15);
  EXPECT_LT(skew, 1e-6);
  // 5 against 3: noise.
  EXPECT_GT(equal_bytes_p_value(two_entries(5, 3, 64), 0, 1), 0.5);
}

HeapProfile sized_entries(const SamplingModel& model, std::vector<std::pair<double, double>> samples_and_sizes) {
  HeapProfile profile;
  profile.model = model;
  for (const auto& [k, size] : samples_and_sizes) {
    ProfileEntry entry;
    entry.samples = k;
    entry.object_size = size;
    entry.estimate_bytes = k * size / sample_probability(model, size);
    profile.entries.push_back(entry);
  }
  return profile;
}

TEST(ProfileInterval, PairwiseTestTellsEntriesKnownToTheByteApart) {
  // Objects of 32 and 64 MiB at T = 512 KiB are sampled with p = 1 - e^-64 and
  // 1 - e^-128, 1 in double precision: one sample each means 32 MiB against 64 MiB.
  // The conditional Poisson test would split 2 samples 2:1 and answer p = 1.
  const SamplingModel go{ModelKind::per_allocation_exponential, 524288, "go"};
  const HeapProfile certain = sized_entries(go, {{1, 32 << 20}, {1, 64 << 20}});
  EXPECT_LE(equal_bytes_p_value(certain, 0, 1), kSmallestPValue);
  // At 8 and 16 MiB (p = 1 - e^-16 and 1 - e^-32) one sample of 8 MiB stands for two
  // objects with probability 2 e^-16 = 2.3e-7: the intervals meet near a = 1e-6.
  const double near_certain = equal_bytes_p_value(sized_entries(go, {{1, 8 << 20}, {1, 16 << 20}}), 0, 1);
  EXPECT_LT(near_certain, 1e-5);
  EXPECT_GT(near_certain, 1e-7);
  // The same entry twice: nothing to tell apart.
  EXPECT_DOUBLE_EQ(equal_bytes_p_value(sized_entries(go, {{3, 8 << 20}, {3, 8 << 20}}), 0, 1), 1.0);
  // An unsampled profile: every interval a point, equal values alike, others apart.
  const SamplingModel every = unsampled_model("gperftools");
  EXPECT_DOUBLE_EQ(equal_bytes_p_value(sized_entries(every, {{4, 64}, {2, 128}}), 0, 1), 1.0);
  EXPECT_LE(equal_bytes_p_value(sized_entries(every, {{4, 64}, {3, 128}}), 0, 1), kSmallestPValue);
}

// The exact size of the test (no Monte Carlo): under equal true bytes, entries of
// n1 objects of s1 and n2 of s2 bytes (n1 s1 = n2 s2), the probability, summed over
// every outcome (k1, k2), that the p-value is at most `alpha`.
double exact_size(const SamplingModel& model, double n1, double s1, double n2, double s2, double alpha) {
  const double p1 = sample_probability(model, s1), p2 = sample_probability(model, s2);
  const boost::math::binomial_distribution<> first(n1, p1), second(n2, p2);
  double rejected = 0;
  for (double k1 = 0; k1 <= n1; ++k1) {
    for (double k2 = 0; k2 <= n2; ++k2) {
      const HeapProfile profile = sized_entries(model, {{k1, s1}, {k2, s2}});
      if (equal_bytes_p_value(profile, 0, 1) <= alpha) {
        rejected += boost::math::pdf(first, k1) * boost::math::pdf(second, k2);
      }
    }
  }
  return rejected;
}

TEST(ProfileInterval, PairwiseTestOfLargeObjectsKeepsItsLevelExactly) {
  // Objects of 256 KiB and 512 KiB at T = 512 KiB (p = 0.39 and 0.63: the interval
  // overlap test), 5 MiB in each entry. The test must reject equal bytes with
  // probability at most alpha, computed exactly over all 21 x 11 outcomes.
  const SamplingModel go{ModelKind::per_allocation_exponential, 524288, "go"};
  for (const double alpha : {0.05, 0.01}) {
    EXPECT_LE(exact_size(go, 20, 262144, 10, 524288, alpha), alpha) << alpha;
    EXPECT_LE(exact_size(go, 20, 262144, 20, 262144, alpha), alpha) << alpha;
  }
  // And it has power: 1 sample of 256 KiB against 10 of 512 KiB rejects at 1%.
  EXPECT_LT(equal_bytes_p_value(sized_entries(go, {{1, 262144}, {10, 524288}}), 0, 1), 0.01);
}

TEST(ProfileInterval, ResamplingDrawsTheFittedBinomialAndIsSeeded) {
  HeapProfile profile = two_entries(50, 10, 4096);
  const double p = sample_probability(kGo, 4096);
  const double n = std::round(50 / p);
  const int replications = 4000;
  double sum = 0;
  for (int r = 0; r < replications; ++r) sum += resample_samples(profile, 0, 7, r);
  // Mean of 4000 Binomial(n, p) draws: within 5 standard errors of n p
  // (false alarm about 6e-7).
  const double se = std::sqrt(n * p * (1 - p) / replications);
  EXPECT_TRUE(testing::within_sigmas(sum / replications, n * p, se));
  EXPECT_EQ(resample_samples(profile, 1, 7, 3), resample_samples(profile, 1, 7, 3));
  const auto order = ranked_entries(profile);
  const RankStability a = rank_stability(profile, order, 2, 300, 11);
  // Through the engine's replication API: 300 resamples are 10 blocks, run here on
  // one and on three threads; the tallies must be the same.
  const RankStability b = rank_stability(profile, order, 2, 300, 11, 3);
  EXPECT_EQ(a.rank_kept, b.rank_kept);
  EXPECT_EQ(a.in_top, b.in_top);
  EXPECT_EQ(a.set_unchanged, b.set_unchanged);
  EXPECT_EQ(a.set_unchanged, 1.0);  // two entries are always the top two
  // 50 against 10 samples of one size: the first stays first unless the draws cross,
  // about 1e-7 per resample (normal approximation, z = 40 / sqrt(60) = 5.2), so the
  // rank holds in all 300 (false alarm about 3e-5).
  EXPECT_EQ(a.rank_kept[0], 1.0);
}

TEST(ProfileInterval, RankStabilityThroughTheEngineIsTheSameOnAnyThreadCount) {
  // Six entries of close samples, so ranks change between resamples.
  HeapProfile profile;
  profile.model = kGo;
  for (const double k : {9.0, 8.0, 8.0, 6.0, 5.0, 5.0}) profile.entries.push_back(two_entries(k, 1, 4096).entries[0]);
  const auto order = ranked_entries(profile);
  const std::size_t top = 4;
  const int replications = 1000;  // 32 blocks of the replication API, the last one short
  const RankStability one = rank_stability(profile, order, top, replications, 5, 1);
  for (const unsigned threads : {2u, 7u}) {
    const RankStability many = rank_stability(profile, order, top, replications, 5, threads);
    EXPECT_EQ(one.rank_kept, many.rank_kept) << threads << " threads";
    EXPECT_EQ(one.in_top, many.in_top) << threads << " threads";
    EXPECT_EQ(one.set_unchanged, many.set_unchanged) << threads << " threads";
  }
  // The same tallies from a plain loop over the same resampled streams: replication r
  // of entry i is resample_samples(profile, i, seed, r), ranked by scaled bytes.
  std::vector<double> kept(top, 0.0);
  for (int r = 0; r < replications; ++r) {
    std::vector<double> bytes;
    for (std::size_t i = 0; i < profile.entries.size(); ++i) {
      bytes.push_back(resample_samples(profile, i, 5, r) / samples_per_byte(kGo, 4096));
    }
    std::vector<std::size_t> ranked(bytes.size());
    std::iota(ranked.begin(), ranked.end(), std::size_t{0});
    std::stable_sort(ranked.begin(), ranked.end(), [&](std::size_t a, std::size_t b) { return bytes[a] > bytes[b]; });
    for (std::size_t rank = 0; rank < top; ++rank) kept[rank] += ranked[rank] == order[rank];
  }
  for (std::size_t rank = 0; rank < top; ++rank) {
    EXPECT_EQ(one.rank_kept[rank], kept[rank] / replications) << "rank " << rank + 1;
    EXPECT_GT(one.rank_kept[rank], 0.0);  // close entries: ranks do change
    EXPECT_LT(one.rank_kept[rank], 1.0);
  }
}

}  // namespace
}  // namespace allocsim::profile
