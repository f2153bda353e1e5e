// The test helper library (tests/testing/ and scheme_theory_checks.h) checked
// itself: each helper passes a case it should pass and fails a case it should fail,
// so a helper that always passes (and with it every test that leans on it) is caught.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "scheme_theory_checks.h"
#include "test_support.h"

namespace allocsim {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// within_sigmas: |measured - expected| <= k se, inclusive at the bound.
TEST(TestingHelpers, WithinSigmasPassesInsideTheBoundAndFailsOutside) {
  EXPECT_TRUE(testing::within_sigmas(10.0, 10.0, 1.0));
  EXPECT_TRUE(testing::within_sigmas(14.9, 10.0, 1.0));
  EXPECT_TRUE(testing::within_sigmas(5.1, 10.0, 1.0));
  EXPECT_TRUE(testing::within_sigmas(15.0, 10.0, 1.0));  // exactly k se apart
  EXPECT_FALSE(testing::within_sigmas(15.1, 10.0, 1.0));
  EXPECT_FALSE(testing::within_sigmas(4.9, 10.0, 1.0));
  EXPECT_FALSE(testing::within_sigmas(1e6, 0.0, 1.0));
}

TEST(TestingHelpers, WithinSigmasUsesTheGivenNumberOfSigmas) {
  EXPECT_TRUE(testing::within_sigmas(12.9, 10.0, 1.0, 3));
  EXPECT_FALSE(testing::within_sigmas(13.1, 10.0, 1.0, 3));
  EXPECT_TRUE(testing::within_sigmas(13.1, 10.0, 1.0));  // at the default 5
  EXPECT_TRUE(testing::within_sigmas(10.0 + 4.99 * 0.01, 10.0, 0.01));
  EXPECT_FALSE(testing::within_sigmas(10.0 + 5.01 * 0.01, 10.0, 0.01));
}

TEST(TestingHelpers, WithinSigmasFailsOnNaNAndOnAnyDistanceWithNoStandardError) {
  EXPECT_FALSE(testing::within_sigmas(kNaN, 0.0, 1.0));
  EXPECT_FALSE(testing::within_sigmas(0.0, kNaN, 1.0));
  EXPECT_FALSE(testing::within_sigmas(0.0, 0.0, kNaN));
  EXPECT_FALSE(testing::within_sigmas(1e-12, 0.0, 0.0));
  EXPECT_TRUE(testing::within_sigmas(3.0, 3.0, 0.0));
}

TEST(TestingHelpers, WithinSigmasSaysHowFarApartTheValuesWere) {
  EXPECT_NONFATAL_FAILURE(EXPECT_TRUE(testing::within_sigmas(16.0, 10.0, 1.0)),
                          "6 standard errors apart (se 1), more than 5");
}

// unbiased: the bias within k sqrt(theory var / R) of 0.
Metrics metrics_with(double bias, std::optional<double> theory_var, std::uint64_t replications) {
  Metrics m;
  m.replications = replications;
  m.truth = 1000;
  m.bias = bias;
  m.theory.var = theory_var;
  return m;
}

TEST(TestingHelpers, UnbiasedPassesABiasWithinItsStandardErrorsAndFailsALargerOne) {
  // se = sqrt(400 / 100) = 2: the bound is 10.
  EXPECT_TRUE(testing::unbiased(metrics_with(0.0, 400.0, 100)));
  EXPECT_TRUE(testing::unbiased(metrics_with(9.9, 400.0, 100)));
  EXPECT_TRUE(testing::unbiased(metrics_with(-9.9, 400.0, 100)));
  EXPECT_FALSE(testing::unbiased(metrics_with(10.1, 400.0, 100)));
  EXPECT_FALSE(testing::unbiased(metrics_with(-10.1, 400.0, 100)));
  // More replications, a smaller standard error: se = sqrt(400 / 10000) = 0.2.
  EXPECT_FALSE(testing::unbiased(metrics_with(9.9, 400.0, 10000)));
  EXPECT_TRUE(testing::unbiased(metrics_with(2.9, 400.0, 100), 1.5));
  EXPECT_FALSE(testing::unbiased(metrics_with(3.1, 400.0, 100), 1.5));
  EXPECT_FALSE(testing::unbiased(metrics_with(kNaN, 400.0, 100)));
}

TEST(TestingHelpers, UnbiasedFailsARowWithoutTheoryVariance) {
  EXPECT_FALSE(testing::unbiased(metrics_with(0.0, std::nullopt, 100)));
  EXPECT_NONFATAL_FAILURE(EXPECT_TRUE(testing::unbiased(metrics_with(0.0, std::nullopt, 100))),
                          "the row has no theory variance");
}

// The binomial count check: successes within k sqrt(n p (1 - p)) of n p.
TEST(TestingHelpers, BinomialCountPassesNearItsExpectationAndFailsFarFromIt) {
  // n = 10000, p = 0.5: expectation 5000, se 50, bound 250.
  EXPECT_TRUE(testing::binomial_count_within_sigmas(5000, 10000, 0.5));
  EXPECT_TRUE(testing::binomial_count_within_sigmas(5249, 10000, 0.5));
  EXPECT_TRUE(testing::binomial_count_within_sigmas(4751, 10000, 0.5));
  EXPECT_FALSE(testing::binomial_count_within_sigmas(5251, 10000, 0.5));
  EXPECT_FALSE(testing::binomial_count_within_sigmas(4749, 10000, 0.5));
  // n = 20000, p = 0.3: expectation 6000, se sqrt(4200) = 64.8, bound 324.
  EXPECT_TRUE(testing::binomial_count_within_sigmas(6320, 20000, 0.3));
  EXPECT_FALSE(testing::binomial_count_within_sigmas(6330, 20000, 0.3));
  EXPECT_FALSE(testing::binomial_count_within_sigmas(6000, 20000, 0.35));
  EXPECT_TRUE(testing::binomial_count_within_sigmas(6190, 20000, 0.3, 3));
  EXPECT_FALSE(testing::binomial_count_within_sigmas(6200, 20000, 0.3, 3));
}

TEST(TestingHelpers, BinomialCountIsExactAtCertainOutcomes) {
  EXPECT_TRUE(testing::binomial_count_within_sigmas(0, 1000, 0.0));
  EXPECT_FALSE(testing::binomial_count_within_sigmas(1, 1000, 0.0));
  EXPECT_TRUE(testing::binomial_count_within_sigmas(1000, 1000, 1.0));
  EXPECT_FALSE(testing::binomial_count_within_sigmas(999, 1000, 1.0));
  EXPECT_NONFATAL_FAILURE(EXPECT_TRUE(testing::binomial_count_within_sigmas(5300, 10000, 0.5)),
                          "(successes of 10000 trials at p 0.5)");
}

// matches_closed_form: within a relative tolerance of the closed form.
TEST(TestingHelpers, MatchesClosedFormAllowsOnlyTheRelativeTolerance) {
  EXPECT_TRUE(testing::matches_closed_form(59.5, 59.5, 0));
  EXPECT_TRUE(testing::matches_closed_form(100.0 * (1 + 0.9e-6), 100.0, 1e-6));
  EXPECT_FALSE(testing::matches_closed_form(100.0 * (1 + 1.1e-6), 100.0, 1e-6));
  EXPECT_TRUE(testing::matches_closed_form(-100.0 * (1 + 0.9e-6), -100.0, 1e-6));
  EXPECT_FALSE(testing::matches_closed_form(100.0, -100.0, 1e-6));
  EXPECT_FALSE(testing::matches_closed_form(1e-300, 0.0, 1e-6));
  EXPECT_FALSE(testing::matches_closed_form(kNaN, 1.0, 1e-6));
  EXPECT_NONFATAL_FAILURE(EXPECT_TRUE(testing::matches_closed_form(2.0, 1.0, 0.5)),
                          "differs from the closed form 1 by 1 of it, more than 0.5");
}

// The bounds: standard errors and the false-alarm rate stated beside kSigmas.
TEST(TestingHelpers, StandardErrorsAreTheTextbookOnes) {
  EXPECT_DOUBLE_EQ(testing::mean_standard_error(400.0, 100.0), 2.0);
  EXPECT_DOUBLE_EQ(testing::mean_standard_error(1.0, 4.0), 0.5);
  EXPECT_DOUBLE_EQ(testing::proportion_standard_error(0.5, 100.0), 0.05);
  EXPECT_DOUBLE_EQ(testing::proportion_standard_error(0.2, 400.0), 0.02);
  EXPECT_EQ(testing::proportion_standard_error(0.0, 100.0), 0.0);
  EXPECT_EQ(testing::proportion_standard_error(1.0, 100.0), 0.0);
}

TEST(TestingHelpers, FalseAlarmRateIsTheTwoSidedTailAtKSigmas) {
  const double two_sided_tail = std::erfc(testing::kSigmas / std::sqrt(2.0));  // 2 (1 - Phi(k))
  EXPECT_NEAR(testing::kSigmasFalseAlarmRate, two_sided_tail, 0.01 * two_sided_tail);
}

// expect_rows_match_theory (scheme_theory_checks.h): each theory column checked.
ScenarioResult one_row(const Metrics& m) {
  ScenarioResult result;
  MetricRow row;
  row.scheme = "s";
  row.estimator = "bytes";
  row.group = "all";
  row.metrics = m;
  result.rows.push_back(row);
  return result;
}

// 100 replications, truth 1000; bias 1 with se_bias 2, var 400 with se_var 10,
// p_any_sample 0.9 with se 0.01: each equal to its theory.
Metrics agreeing_metrics() {
  Metrics m;
  m.replications = 100;
  m.truth = 1000;
  m.bias = 1;
  m.se_bias = 2;
  m.var = 400;
  m.se_var = 10;
  m.p_any_sample = 0.9;
  m.se_p_any_sample = 0.01;
  m.theory.bias = 1;
  m.theory.var = 400;
  m.theory.p_any_sample = 0.9;
  return m;
}

TEST(TestingHelpers, RowsMatchingTheoryPassAndCountTheRowsWithABias) {
  EXPECT_EQ(testing::expect_rows_match_theory(one_row(agreeing_metrics()), "s"), 1);
  EXPECT_EQ(testing::expect_rows_match_theory(one_row(agreeing_metrics()), "another scheme"), 0);
  Metrics near = agreeing_metrics();
  near.bias = 1 + 4.9 * 2;
  near.var = 400 - 4.9 * 10;
  near.p_any_sample = 0.9 + 4.9 * 0.01;
  EXPECT_EQ(testing::expect_rows_match_theory(one_row(near), "s"), 1);
}

TEST(TestingHelpers, RowsOffTheirTheoryFail) {
  Metrics biased = agreeing_metrics();
  biased.bias = 1 + 5.1 * 2;
  EXPECT_NONFATAL_FAILURE(testing::expect_rows_match_theory(one_row(biased), "s"), "s/bytes/total:all point 0");
  Metrics spread = agreeing_metrics();
  spread.var = 400 + 5.1 * 10;
  EXPECT_NONFATAL_FAILURE(testing::expect_rows_match_theory(one_row(spread), "s"), "s/bytes/total:all point 0");
  Metrics seen = agreeing_metrics();
  seen.p_any_sample = 0.9 - 5.1 * 0.01;
  EXPECT_NONFATAL_FAILURE(testing::expect_rows_match_theory(one_row(seen), "s"), "s/bytes/total:all point 0");
  // No replication deviated although the theory's error is 2% of the truth.
  Metrics constant = agreeing_metrics();
  constant.var = 0;
  EXPECT_NONFATAL_FAILURE(testing::expect_rows_match_theory(one_row(constant), "s"), "s/bytes/total:all point 0");
  constant.theory.var = 1e-9;  // an error too rare to show: accepted
  EXPECT_EQ(testing::expect_rows_match_theory(one_row(constant), "s"), 1);
}

// ScriptedStream and the uniforms that script an exponential draw.
TEST(TestingHelpers, ScriptedStreamReplaysItsValuesAndThrowsWhenExhausted) {
  testing::ScriptedStream stream({0.25, 0.5}, {7});
  EXPECT_EQ(stream.next_uniform(), 0.25);
  EXPECT_EQ(stream.next_uniform(), 0.5);
  EXPECT_EQ(stream.next_u64(), 7u);
  EXPECT_EQ(stream.uniforms_used(), 2u);
  EXPECT_EQ(stream.words_used(), 1u);
  EXPECT_THROW(stream.next_uniform(), std::logic_error);
  EXPECT_THROW(stream.next_u64(), std::logic_error);
}

TEST(TestingHelpers, ScriptedUniformsGiveTheAskedDraw) {
  const std::vector<std::pair<double, double>> targets_and_means = {
      {1, 1}, {2, 1}, {37, 1}, {1, 100}, {37, 100}, {4096, 100}, {1, 524288}, {4096, 524288}, {3e6, 524288}};
  for (const auto& [target, mean] : targets_and_means) {
    EXPECT_EQ(std::floor(-mean * std::log(testing::uniform_for_next(target, mean))) + 1, target) << mean;
    EXPECT_EQ(std::trunc(-mean * std::log(testing::uniform_for_interval(target, mean))), target) << mean;
  }
}

// make_trace and expect_same_trace.
TEST(TestingHelpers, MakeTraceFillsEveryColumn) {
  const Trace t = testing::make_trace({8, 16, 32}, {0, 2, 1});
  EXPECT_EQ(t.size(), 3u);
  EXPECT_EQ(t.thread_count, 3u);
  EXPECT_EQ(t.free_time[1], kNeverFreed);
  EXPECT_EQ(t.time[2], 2u);
  EXPECT_EQ(testing::make_trace({8, 16}).thread_count, 1u);
}

TEST(TestingHelpers, ExpectSameTracePassesEqualTracesAndFailsOnAnyColumn) {
  const Trace a = testing::make_trace({8, 16, 32});
  testing::expect_same_trace(a, testing::make_trace({8, 16, 32}));
  EXPECT_NONFATAL_FAILURE(testing::expect_same_trace(a, testing::make_trace({8, 16, 33})), "requested");
  EXPECT_NONFATAL_FAILURE(testing::expect_same_trace(testing::make_trace({8, 16, 32}, {0, 1, 0}),
                                                     testing::make_trace({8, 16, 32}, {1, 0, 0})),
                          "thread");
  Trace freed = testing::make_trace({8, 16, 32});
  freed.free_time.mutable_data()[0] = 1;
  EXPECT_NONFATAL_FAILURE(testing::expect_same_trace(a, freed), "free_time");
}

// expect_same_observations: the same events, in any order, with the same values.
class ListedRun final : public SchemeRun {
 public:
  explicit ListedRun(std::vector<Observation> observations) : observations_(std::move(observations)) {}
  void replay(const StreamKey&, std::vector<Observation>& out) override {
    out.insert(out.end(), observations_.begin(), observations_.end());
  }

 private:
  std::vector<Observation> observations_;
};

void expect_runs_agree(const std::vector<Observation>& a, const std::vector<Observation>& b) {
  ListedRun first(a), second(b);
  testing::expect_same_observations(first, second, 2);
}

TEST(TestingHelpers, SameObservationsInAnotherOrderPass) {
  expect_runs_agree({{1, 1, 0, 2.0}, {5, 2, 3, 4.0}}, {{5, 2, 3, 4.0}, {1, 1, 0, 2.0}});
}

TEST(TestingHelpers, DifferentObservationsFail) {
  EXPECT_FATAL_FAILURE(expect_runs_agree({{1, 1, 0, 2.0}}, {{1, 1, 0, 2.0}, {2, 1, 0, 2.0}}), "replication 0");
  EXPECT_FATAL_FAILURE(expect_runs_agree({{1, 1, 0, 2.0}}, {{2, 1, 0, 2.0}}), "observation 0");
  EXPECT_FATAL_FAILURE(expect_runs_agree({{1, 1, 0, 2.0}}, {{1, 2, 0, 2.0}}), "event 1");
  EXPECT_FATAL_FAILURE(expect_runs_agree({{1, 1, 0, 2.0}}, {{1, 1, 7, 2.0}}), "event 1");
  EXPECT_FATAL_FAILURE(expect_runs_agree({{1, 1, 0, 2.0}}, {{1, 1, 0, 2.5}}), "event 1");
}

// find_row: the row asked for, or an error, never another row.
TEST(TestingHelpers, FindRowFindsOnlyTheRowAskedFor) {
  ScenarioResult result = one_row(agreeing_metrics());
  result.rows.front().metrics.truth = 42;
  EXPECT_EQ(testing::find_row(result, "s", "bytes").truth, 42);
  EXPECT_THROW(testing::find_row(result, "s", "count"), std::logic_error);
  EXPECT_THROW(testing::find_row(result, "t", "bytes"), std::logic_error);
  EXPECT_THROW(testing::find_row(result, "s", "bytes", GroupKind::stack), std::logic_error);
  EXPECT_THROW(testing::find_row(result, "s", "bytes", GroupKind::total, "all", 1), std::logic_error);
}

// catalogue_entry and parameter_default read `allocsim schemes --json`.
TEST(TestingHelpers, CatalogueEntryFindsARegisteredSchemeOnly) {
  const nlohmann::json first = describe_schemes_json().at(0);
  const std::string name = first["name"];
  EXPECT_EQ(testing::catalogue_entry(name), first);
  EXPECT_TRUE(testing::catalogue_entry("no-such-scheme").is_null());
  ASSERT_FALSE(first["parameters"].empty());
  const nlohmann::json& parameter = first["parameters"].at(0);
  EXPECT_EQ(testing::parameter_default(first, parameter["name"].get<std::string>()), parameter["default"]);
  EXPECT_TRUE(testing::parameter_default(first, "no-such-parameter").is_null());
}

}  // namespace
}  // namespace allocsim
