// Interval estimators in the Monte Carlo engine: coverage, misses and width.
#include <gtest/gtest.h>

#include <boost/math/distributions/poisson.hpp>
#include <cmath>

#include "allocsim/estimate/wald_interval.h"
#include "test_support.h"

namespace allocsim {
namespace {

// For the poisson scheme's bytes estimator T*N with variance estimate T^2 N, the
// Wald interval covers the truth T*lambda exactly when |N - lambda| <= z sqrt(N);
// its exact coverage is the Poisson probability of that event.
double exact_poisson_wald_coverage(double lambda, double level) {
  const double z = normal_two_sided_z(level);
  const boost::math::poisson_distribution<double> poisson(lambda);
  double coverage = 0;
  for (int n = 0; n < lambda + 40 * std::sqrt(lambda) + 40; ++n) {
    if (std::fabs(n - lambda) <= z * std::sqrt(static_cast<double>(n))) coverage += boost::math::pdf(poisson, n);
  }
  return coverage;
}

const IntervalRow& find_interval(const ScenarioResult& result, std::size_t point, const std::string& estimator) {
  for (const auto& row : result.interval_rows) {
    if (row.point == point && row.estimator == estimator && row.group_kind == GroupKind::total) return row;
  }
  throw std::logic_error("no interval row");
}

// Coverage is a binomial proportion with se sqrt(c (1 - c) / R): within kSigmas of
// the exact coverage (two-sided false alarm kSigmasFalseAlarmRate per assertion, fixed seed).
TEST(IntervalCoverage, PoissonWaldCoverageMatchesItsExactValue) {
  const std::string json = R"({"name": "t", "seed": 8, "replications": 6000, "interval_level": 0.9,
    "trace": {"allocations": "$n", "sizes": {"distribution": "constant", "size": 512}},
    "schemes": [{"scheme": "poisson", "rate": 4096}],
    "sweep": {"n": [4, 40, 400]}})";
  const auto result = testing::run_scenario_text(json, 2);
  for (std::size_t point = 0; point < 3; ++point) {
    const IntervalRow& row = find_interval(result, point, "bytes");
    const double lambda = row.metrics.truth / 4096;
    const double exact = exact_poisson_wald_coverage(lambda, 0.9);
    EXPECT_EQ(row.interval, "wald");
    EXPECT_EQ(row.metrics.level, 0.9);
    EXPECT_TRUE(testing::within_sigmas(row.metrics.coverage, exact, testing::proportion_standard_error(exact, 6000)))
        << lambda;
    EXPECT_NEAR(row.metrics.coverage + row.metrics.miss_low + row.metrics.miss_high, 1.0, 1e-12);
    EXPECT_GT(row.metrics.mean_width, 0);
    EXPECT_DOUBLE_EQ(row.metrics.rel_width, row.metrics.mean_width / row.metrics.truth);
  }
  // With lambda = 0.5 the interval is empty ([0, 0]) whenever N = 0, so the truth
  // lies above it with probability at least e^-0.5.
  EXPECT_GE(find_interval(result, 0, "bytes").metrics.miss_high,
            std::exp(-0.5) - testing::kSigmas * testing::proportion_standard_error(std::exp(-0.5), 6000));
}

TEST(IntervalCoverage, WaldIntervalFormula) {
  const Interval i = wald_interval(100, 25, 0.95);
  EXPECT_NEAR(i.lower, 100 - 1.959963984540054 * 5, 1e-9);
  EXPECT_NEAR(i.upper, 100 + 1.959963984540054 * 5, 1e-9);
  const Interval zero = wald_interval(0, 0, 0.95);
  EXPECT_EQ(zero.lower, 0);
  EXPECT_EQ(zero.upper, 0);
}

}  // namespace
}  // namespace allocsim
