// The exact conditional test behind `allocsim diff` (src/allocsim/profile/count_change.h),
// against closed forms and published values.
#include "allocsim/profile/count_change.h"

#include <cmath>
#include <cstdint>
#include <random>

#include <gtest/gtest.h>

namespace allocsim::profile {
namespace {

TEST(CountChange, ClopperPearsonMatchesPublishedValues) {
  // R: binom.test(5, 10)$conf.int = 0.1870860 0.8129140 (Clopper & Pearson 1934).
  const ProportionInterval mid = clopper_pearson(5, 10, 0.05);
  EXPECT_NEAR(mid.lower, 0.1870860, 1e-7);
  EXPECT_NEAR(mid.upper, 0.8129140, 1e-7);
  // Closed form at k = 0: upper = 1 - (alpha/2)^(1/n).
  const ProportionInterval zero = clopper_pearson(0, 10, 0.05);
  EXPECT_EQ(zero.lower, 0.0);
  EXPECT_NEAR(zero.upper, 1.0 - std::pow(0.025, 0.1), 1e-12);
  // and its mirror at k = n: lower = (alpha/2)^(1/n).
  const ProportionInterval all = clopper_pearson(10, 10, 0.05);
  EXPECT_NEAR(all.lower, std::pow(0.025, 0.1), 1e-12);
  EXPECT_EQ(all.upper, 1.0);
}

TEST(CountChange, PValuesAreTheBinomialTails) {
  // Equal exposures: K1 | N ~ Binomial(N, 1/2).
  EXPECT_NEAR(compare_counts(0, 5, 1.0, 1.0, 0.05).p_value, 2.0 / 32.0, 1e-14);     // 2 * 2^-5
  EXPECT_NEAR(compare_counts(10, 0, 1.0, 1.0, 0.05).p_value, 2.0 / 1024.0, 1e-14);  // 2 * 2^-10
  // sum_{k<=7} C(20,k) = 137980; R: binom.test(7, 20)$p.value = 0.2632.
  EXPECT_NEAR(compare_counts(7, 13, 1.0, 1.0, 0.05).p_value, 2.0 * 137980.0 / 1048576.0, 1e-12);
  EXPECT_EQ(compare_counts(10, 10, 1.0, 1.0, 0.05).p_value, 1.0);
  // Unequal exposures e1 = 1, e2 = 3: r = 1/4, P(K1 = 0 | N = 10) = 0.75^10.
  EXPECT_NEAR(compare_counts(0, 10, 1.0, 3.0, 0.05).p_value, 2.0 * std::pow(0.75, 10), 1e-12);
  // Counts in proportion to the exposures are no evidence at all.
  EXPECT_EQ(compare_counts(10, 30, 1.0, 3.0, 0.05).p_value, 1.0);
  EXPECT_EQ(compare_counts(0, 0, 1.0, 1.0, 0.05).p_value, 1.0);
}

TEST(CountChange, RatioAndItsIntervalAreTheMappedClopperPearsonBounds) {
  const CountChange c = compare_counts(5, 5, 2.0, 1.0, 0.05);
  // rho = K2/K1 * e1/e2 = 2; bounds (1-p)/p * e1/e2 at p = 0.8129140 and 0.1870860.
  EXPECT_NEAR(c.ratio, 2.0, 1e-14);
  EXPECT_NEAR(c.ratio_lower, (1.0 - 0.8129140) / 0.8129140 * 2.0, 1e-6);
  EXPECT_NEAR(c.ratio_upper, (1.0 - 0.1870860) / 0.1870860 * 2.0, 1e-5);
  EXPECT_TRUE(std::isinf(compare_counts(0, 4, 1.0, 1.0, 0.05).ratio_upper));
  EXPECT_EQ(compare_counts(4, 0, 1.0, 1.0, 0.05).ratio_lower, 0.0);
}

TEST(CountChange, TestRejectsExactlyWhenTheIntervalExcludesOne) {
  // The central test and the Clopper-Pearson interval invert each other.
  for (std::uint64_t k1 = 0; k1 <= 40; ++k1) {
    for (std::uint64_t k2 = 0; k2 <= 40; ++k2) {
      if (k1 + k2 == 0) continue;
      const CountChange c = compare_counts(k1, k2, 1.0, 1.5, 0.05);
      const bool excludes_one = c.ratio_lower > 1.0 || c.ratio_upper < 1.0;
      // Boundary ties (p within 1e-9 of alpha) could go either way in floating point.
      if (std::abs(c.p_value - 0.05) < 1e-9) continue;
      EXPECT_EQ(c.p_value <= 0.05, excludes_one) << k1 << " " << k2;
    }
  }
}

TEST(CountChange, HolmMatchesPublishedAdjustment) {
  // R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02.
  const std::vector<double> adjusted = holm_adjust({0.01, 0.04, 0.03, 0.005});
  ASSERT_EQ(adjusted.size(), 4u);
  EXPECT_NEAR(adjusted[0], 0.03, 1e-15);
  EXPECT_NEAR(adjusted[1], 0.06, 1e-15);
  EXPECT_NEAR(adjusted[2], 0.06, 1e-15);
  EXPECT_NEAR(adjusted[3], 0.02, 1e-15);
  EXPECT_EQ(holm_adjust({0.9, 0.8})[0], 1.0);
  EXPECT_TRUE(holm_adjust({}).empty());
}

TEST(CountChange, FalsePositiveRateUnderTheNullIsAtMostAlpha) {
  // Monte Carlo, fixed seed: K1 ~ Poisson(30), K2 ~ Poisson(60) with exposures 1 and 2
  // (same rate). The exact test's size is <= alpha = 0.05; bound 0.05 + 5 standard
  // errors of a fraction over 20000 draws (5 * sqrt(0.05 * 0.95 / 20000) = 0.0077),
  // false alarm about 3e-7.
  std::mt19937_64 rng(33);
  std::poisson_distribution<std::uint64_t> base(30.0);
  std::poisson_distribution<std::uint64_t> next(60.0);
  constexpr int kDraws = 20000;
  int rejected = 0;
  for (int i = 0; i < kDraws; ++i) {
    if (compare_counts(base(rng), next(rng), 1.0, 2.0, 0.05).p_value <= 0.05) ++rejected;
  }
  EXPECT_LE(static_cast<double>(rejected) / kDraws, 0.05 + 5.0 * std::sqrt(0.05 * 0.95 / kDraws));
  // Power against a doubling (rate 2x in NEW): far above the size.
  std::poisson_distribution<std::uint64_t> doubled(120.0);
  int detected = 0;
  for (int i = 0; i < 2000; ++i) {
    if (compare_counts(base(rng), doubled(rng), 1.0, 2.0, 0.05).p_value <= 0.05) ++detected;
  }
  EXPECT_GE(detected, 1800);  // theory: about 0.999 at these means
}

}  // namespace
}  // namespace allocsim::profile
