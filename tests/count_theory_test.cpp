#include "allocsim/estimate/count_theory.h"

#include <gtest/gtest.h>

#include <cmath>

namespace allocsim {
namespace {

// Brute force E|N - mean| and E[|N - mean|; N >= 1] by summing the pmf.
struct Brute {
  double mad = 0, mad_given_any_times_p = 0, p_zero = 0;
};

Brute poisson_brute(double lambda) {
  Brute b;
  double pmf = std::exp(-lambda);
  b.p_zero = pmf;
  for (int k = 0; k < 2000; ++k) {
    if (k > 0) pmf *= lambda / k;
    b.mad += pmf * std::fabs(k - lambda);
    if (k > 0) b.mad_given_any_times_p += pmf * std::fabs(k - lambda);
  }
  return b;
}

Brute binomial_brute(int n, double p) {
  Brute b;
  for (int k = 0; k <= n; ++k) {
    const double pmf = std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) +
                                k * std::log(p) + (n - k) * std::log1p(-p));
    b.mad += pmf * std::fabs(k - n * p);
    if (k > 0) b.mad_given_any_times_p += pmf * std::fabs(k - n * p);
    if (k == 0) b.p_zero = pmf;
  }
  return b;
}

TEST(CountTheory, PoissonClosedFormsMatchPmfSums) {
  for (double lambda : {0.01, 0.3, 1.0, 2.5, 7.0, 42.0, 300.0}) {
    const TheoryValues t = poisson_scaled_count_theory(lambda, 4096);
    const Brute b = poisson_brute(lambda);
    EXPECT_NEAR(*t.mape, b.mad / lambda, 1e-10) << lambda;
    EXPECT_NEAR(*t.cmape, b.mad_given_any_times_p / (1 - b.p_zero) / lambda, 1e-9) << lambda;
    EXPECT_NEAR(*t.p_any_sample, 1 - std::exp(-lambda), 1e-15) << lambda;
    EXPECT_DOUBLE_EQ(*t.var, 4096.0 * 4096.0 * lambda);
    EXPECT_EQ(*t.bias, 0.0);
  }
}

TEST(CountTheory, BinomialClosedFormsMatchPmfSums) {
  for (int n : {1, 2, 5, 100, 1000}) {
    for (double p : {0.001, 0.05, 0.5}) {
      const TheoryValues t = binomial_scaled_count_theory(n, p, 1 / p);
      const Brute b = binomial_brute(n, p);
      const double mean = n * p;
      EXPECT_NEAR(*t.mape, b.mad / mean, 1e-9) << n << " " << p;
      EXPECT_NEAR(*t.cmape, b.mad_given_any_times_p / (1 - b.p_zero) / mean, 1e-9) << n << " " << p;
      EXPECT_NEAR(*t.p_any_sample, 1 - b.p_zero, 1e-12);
      EXPECT_NEAR(*t.var, n * (1 / p - 1), 1e-9 * *t.var);  // S (T - 1) with S = n, T = 1/p
    }
  }
}

TEST(CountTheory, LargeLambdaStaysFinite) {
  const TheoryValues t = poisson_scaled_count_theory(1e9, 1.0);
  // For large lambda the MAD tends to sqrt(2 lambda / pi).
  EXPECT_NEAR(*t.mape, std::sqrt(2.0 / (M_PI * 1e9)), 1e-9);
  EXPECT_TRUE(std::isfinite(*t.cmape));
}

}  // namespace
}  // namespace allocsim
