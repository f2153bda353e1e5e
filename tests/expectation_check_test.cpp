// Expectations on P(>= 1 sample) are tested exactly against the binomial count of
// replications with a sample, at the false-alarm rate the sigmas name.
#include <gtest/gtest.h>

#include <cmath>

#include "allocsim/check/expectation_check.h"

namespace allocsim {
namespace {

// One total row of R replications, `with_sample` of them with a sample, whose
// theory gives P(>= 1 sample) = p; and the expectation "p_any_sample equals
// theory within 5 se".
bool passes(std::uint64_t replications, std::uint64_t with_sample, double p) {
  Scenario scenario;
  Expectation e;
  e.metric = "p_any_sample";
  e.equals_theory = true;
  e.sigmas = 5;
  scenario.expectations.push_back(e);
  ScenarioResult result;
  MetricRow row;
  row.scheme = "dotnet";
  row.estimator = "bytes";
  row.group = "all";
  row.metrics.replications = replications;
  row.metrics.replications_with_sample = with_sample;
  row.metrics.p_any_sample = static_cast<double>(with_sample) / static_cast<double>(replications);
  row.metrics.se_p_any_sample = std::sqrt(p * (1 - p) / static_cast<double>(replications));
  row.metrics.theory.p_any_sample = p;
  result.rows.push_back(row);
  const std::vector<ExpectationOutcome> outcomes = check_expectations(scenario, result);
  EXPECT_EQ(outcomes.size(), 1u);
  return outcomes.at(0).passed;
}

// p = 1 - 2e-6, R = 16000: one replication without a sample has probability
// 16000 * 2e-6 = 3.2%, far above 5.7e-7, though it lies 5.6 normal standard
// errors from p. Eight misses have probability about 0.032^8 / 8! = 2.7e-17.
TEST(ExpectationCheck, RareMissesAreJudgedByTheirBinomialTail) {
  EXPECT_TRUE(passes(16000, 16000, 1 - 2e-6));
  EXPECT_TRUE(passes(16000, 15999, 1 - 2e-6));
  EXPECT_FALSE(passes(16000, 15992, 1 - 2e-6));
}

// Where the normal approximation holds, the exact test agrees with it: p = 0.5,
// R = 10000, se = 0.005; 5 se is 250 replications. 5200 (4 se) passes, 5300 (6 se) fails.
TEST(ExpectationCheck, ModerateProportionsKeepTheNormalBound) {
  EXPECT_TRUE(passes(10000, 5200, 0.5));
  EXPECT_TRUE(passes(10000, 4800, 0.5));
  EXPECT_FALSE(passes(10000, 5300, 0.5));
  EXPECT_FALSE(passes(10000, 4700, 0.5));
}

// A certain outcome admits no other count.
TEST(ExpectationCheck, CertainOutcomesAdmitOnlyTheirCount) {
  EXPECT_TRUE(passes(1000, 1000, 1.0));
  EXPECT_FALSE(passes(1000, 999, 1.0));
  EXPECT_TRUE(passes(1000, 0, 0.0));
  EXPECT_FALSE(passes(1000, 1, 0.0));
}

}  // namespace
}  // namespace allocsim
