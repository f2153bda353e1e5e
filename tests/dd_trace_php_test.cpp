// dd-trace-php (sampler/systems/dd-trace-php/): the exact Poisson draws its countdown
// uses, and the renewal closed form of its samples on a run of one size against the
// engine, which is what its upscaling's bias follows.
#include <gtest/gtest.h>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/poisson.hpp>

#include <cmath>
#include <vector>

#include "allocsim/engine/scheme_replay.h"
#include "allocsim/random/poisson_draw.h"
#include "allocsim/random/random_stream.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/dd-trace-php/dd_trace_php.h"
#include "testing/statistical_assertions.h"
#include "testing/traces.h"

namespace allocsim {
namespace {

// 2·10^5 draws of Poisson(lambda) against Boost's distribution: the mean within 5
// standard errors of lambda (false alarm 5.7e-7), and a chi-square test over bins of
// at least 50 expected draws whose p-value must exceed 1e-6 (false alarm 1e-6).
void expect_poisson(double lambda, std::uint64_t seed) {
  constexpr std::size_t kDraws = 200000;
  const PoissonDraw draw(lambda);
  RandomStream stream({seed, 1, 0}, 0);
  std::vector<double> values(kDraws);
  double sum = 0;
  for (double& x : values) {
    x = static_cast<double>(draw([&] { return stream.next_uniform(); }));
    sum += x;
  }
  EXPECT_TRUE(testing::within_sigmas(sum / kDraws, lambda, std::sqrt(lambda / kDraws))) << "lambda " << lambda;

  // Bins [edge_j, edge_{j+1}) from the distribution's quantiles, merged to >= 50 expected.
  const boost::math::poisson_distribution<> poisson(lambda);
  std::vector<double> edges = {0};
  double last_cdf = 0;
  for (double k = 0; k < lambda + 12 * std::sqrt(lambda) + 20; ++k) {
    const double cdf = boost::math::cdf(poisson, k);
    if ((cdf - last_cdf) * kDraws >= 50 && (1 - cdf) * kDraws >= 50) {
      edges.push_back(k + 1);
      last_cdf = cdf;
    }
  }
  std::vector<double> observed(edges.size(), 0);
  for (const double x : values) {
    std::size_t j = edges.size() - 1;
    while (x < edges[j]) --j;
    observed[j] += 1;
  }
  double statistic = 0;
  for (std::size_t j = 0; j < edges.size(); ++j) {
    const double below = j == 0 ? 0 : boost::math::cdf(poisson, edges[j] - 1);
    const double upto = j + 1 < edges.size() ? boost::math::cdf(poisson, edges[j + 1] - 1) : 1;
    const double expected = (upto - below) * kDraws;
    statistic += (observed[j] - expected) * (observed[j] - expected) / expected;
  }
  ASSERT_GE(edges.size(), 3u);
  const boost::math::chi_squared_distribution<> chi(static_cast<double>(edges.size() - 1));
  EXPECT_GT(boost::math::cdf(boost::math::complement(chi, statistic)), 1e-6)
      << "lambda " << lambda << ": chi-square " << statistic << " on " << edges.size() - 1 << " df";
}

TEST(PoissonDraw, SmallMeansByInversion) {
  expect_poisson(0.5, 11);
  expect_poisson(3.5, 12);
}

TEST(PoissonDraw, LargeMeansByTransformedRejection) {
  expect_poisson(10, 13);
  expect_poisson(137.5, 14);
  expect_poisson(4194304, 15);
}

// The renewal sum by hand for a Poisson(1) gap and s = 1: K = max(1, N) = 1 w.p.
// P(N <= 1) = 2/e, 2 w.p. P(N = 2) = 1/(2e), ...; u_1 = P(K = 1) = 2/e.
TEST(DdTracePhpClosedForm, RenewalSumByHand) {
  EXPECT_TRUE(testing::matches_closed_form(ddtrace_php_samples_expected(1, 1, 1.0), 2 / std::exp(1.0), 1e-12));
  const double p1 = 2 / std::exp(1.0), p2 = 1 / (2 * std::exp(1.0));
  EXPECT_TRUE(testing::matches_closed_form(ddtrace_php_samples_expected(1, 2, 1.0), p1 + (p2 + p1 * p1), 1e-12));
}

// At the default D = 4 MiB, the renewal sum agrees with an independent derivation
// (scripts/derive-dd-trace-php-bias.py: a sum of the Poisson pmf in log space).
TEST(DdTracePhpClosedForm, RenewalSumAtTheDefaultDistance) {
  EXPECT_TRUE(testing::matches_closed_form(ddtrace_php_samples_expected(419430, 400, 4194304), 37.6852122690, 1e-8));
  EXPECT_TRUE(testing::matches_closed_form(ddtrace_php_samples_expected(2139095, 400, 4194304), 200.0000001130, 1e-8));
  EXPECT_TRUE(testing::matches_closed_form(ddtrace_php_samples_expected(1426063, 400, 4194304), 133.0, 1e-8));
}

// Samples of n = 400 allocations of one size s on one thread, 4000 replications,
// against the renewal closed form at 5 standard errors (false alarm 5.7e-7 each).
// D = 64 makes the gap's spread (sd 8, 12.5 %) visible in a few thousand
// replications; the sizes straddle D/s = 1, 2 and 3, where the bias of the
// upscaling jumps.
TEST(DdTracePhpClosedForm, SamplesOnOneSizeAsTheRenewalSum) {
  constexpr double kDistance = 64;
  constexpr std::uint64_t kAllocations = 400;
  constexpr std::uint64_t kReplications = 4000;
  const auto scheme = create_scheme("dd-trace-php", {{"rate", kDistance}}, "$");
  for (const std::uint64_t s : {13, 19, 22, 31, 32, 33, 63, 64, 65, 96}) {
    const double ratio = static_cast<double>(s) / kDistance;
    const Trace trace = testing::make_trace(std::vector<std::uint64_t>(kAllocations, s));
    SchemeReplay replay(*scheme, trace);
    double sum = 0, sum_squares = 0;
    for (std::uint64_t r = 0; r < kReplications; ++r) {
      replay.replay({21, 3, r});
      const auto samples = static_cast<double>(replay.observations().size());
      sum += samples;
      sum_squares += samples * samples;
    }
    const double mean = sum / kReplications;
    const double variance = sum_squares / kReplications - mean * mean;
    ASSERT_GT(variance, 0) << "s/D = " << ratio << ": no spread to test against";
    const double expected = ddtrace_php_samples_expected(s, kAllocations, kDistance);
    EXPECT_TRUE(testing::within_sigmas(mean, expected, std::sqrt(variance / kReplications))) << "s/D = " << ratio;
  }
}

}  // namespace
}  // namespace allocsim
