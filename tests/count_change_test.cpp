// The exact conditional test behind `allocsim diff` (src/allocsim/profile/count_change.h),
// against closed forms and published values.
#include "allocsim/profile/count_change.h"

#include <boost/math/distributions/poisson.hpp>
#include <cmath>
#include <cstdint>

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

// P(the test rejects at alpha = 0.05) when K1 ~ Poisson(m1) and K2 ~ Poisson(m2) with
// exposures 1 and 2, summed exactly over the counts (the tails beyond 120 and 300
// hold less than 1e-34 of the mass at the means used below).
double exact_rejection_rate(double m1, double m2) {
  const boost::math::poisson_distribution<double> first(m1), second(m2);
  double rate = 0;
  for (std::uint64_t k1 = 0; k1 < 120; ++k1) {
    for (std::uint64_t k2 = 0; k2 < 300; ++k2) {
      if (compare_counts(k1, k2, 1.0, 2.0, 0.05).p_value > 0.05) continue;
      rate += boost::math::pdf(first, static_cast<double>(k1)) * boost::math::pdf(second, static_cast<double>(k2));
    }
  }
  return rate;
}

TEST(CountChange, FalsePositiveRateUnderTheNullIsAtMostAlpha) {
  // Same rate in both (means 30 and 60 over exposures 1 and 2): the exact test's size
  // is at most alpha; it is 0.0383602 (the same sum in SciPy 1.10: binom.cdf and
  // binom.sf for the p-values, poisson.pmf for the weights).
  const double size = exact_rejection_rate(30.0, 60.0);
  EXPECT_LE(size, 0.05);
  EXPECT_NEAR(size, 0.0383602418, 1e-9);
}

TEST(CountChange, PowerAgainstADoublingIsTheExactSum) {
  // The rate doubled in NEW (means 30 and 120): power 0.9505420 by the same SciPy sum.
  EXPECT_NEAR(exact_rejection_rate(30.0, 120.0), 0.9505419789, 1e-9);
}

}  // namespace
}  // namespace allocsim::profile
