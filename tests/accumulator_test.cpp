#include "allocsim/sampler/families/accumulator_sampler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "allocsim/sampler/families/second_layer.h"
#include "allocsim/util/error.h"
#include "scheme_theory_checks.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::catalogue_entry;
using testing::expect_rows_match_theory;
using testing::find_row;
using testing::make_trace;
using testing::parameter_default;
using testing::run_scenario_text;
using testing::ScriptedStream;
using testing::uniform_for_interval;

// T = 100. acc = -50; 30 -> -20; 10 -> -10; 25 -> 15: reached 0 at byte 9, 15/100 = 0
// deterministic samples, draw 40 -> -25: n = 1. 330 -> 305, offset 24: 3 deterministic,
// acc 5, draw 3 clamped to 8 -> -3: n = 4. 60 -> 57, offset 2: draws 20, 30, 10 ->
// 37, 7, -3: n = 3.
TEST(AccumulatorSampler, ScriptedAccumulatorCarriesAndCountsWholePeriods) {
  const double T = 100;
  const Trace trace = make_trace({30, 10, 25, 330, 60});
  std::vector<ScriptedStream> lanes = {
      ScriptedStream({uniform_for_interval(50, T), uniform_for_interval(40, T), uniform_for_interval(3, T),
                      uniform_for_interval(20, T), uniform_for_interval(30, T), uniform_for_interval(10, T)})};
  AccumulatorSampler sampler(100);
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  const std::uint64_t events[] = {2, 3, 4}, offsets[] = {9, 24, 2};
  const std::uint32_t samples[] = {1, 4, 3};
  ASSERT_EQ(out.size(), 3u);
  for (std::size_t j = 0; j < 3; ++j) {
    EXPECT_EQ(out[j].event, events[j]) << j;
    EXPECT_EQ(out[j].offset, offsets[j]) << j;
    EXPECT_EQ(out[j].samples, samples[j]) << j;
    EXPECT_EQ(out[j].weight, 100.0 * samples[j]) << j;
  }
  EXPECT_EQ(lanes[0].uniforms_used(), 6u);
  EXPECT_EQ(accumulator_interval(1e-300, 100), 2000);  // clamped to 20 T

  // Registers: T n, s/(1 - e^(-s/T)), 1/(1 - e^(-s/T)), 1, max(s, T), s.
  std::vector<double> w(18);
  testing::create_scheme("ddprof", {{"rate", 100}})->weigh(trace, out, w);
  const double second[] = {400, 330 / -std::expm1(-3.3), 1 / -std::expm1(-3.3), 1, 330, 330};
  for (std::size_t j = 0; j < 6; ++j) EXPECT_DOUBLE_EQ(w[6 + j], second[j]) << j;
  EXPECT_EQ(w[4], 100.0);  // max(25, T)
  EXPECT_EQ(w[5], 25.0);
}

// The second layer keeps each observation with a uniform keyed by (replication,
// event), whatever order the sampler emits them in: the same events survive in both
// orders, about keep of them (5 se of a binomial), and keep = 1 adds no layer.
class FixedRun final : public SchemeRun {
 public:
  explicit FixedRun(bool reversed) : reversed_(reversed) {}
  void replay(const StreamKey&, std::vector<Observation>& out) override {
    for (std::uint64_t i = 0; i < 20000; ++i) out.push_back({reversed_ ? 19999 - i : i, 1, 0, 1.0});
  }

 private:
  bool reversed_;
};

TEST(SecondLayer, KeepsTheSameEventsInAnyOrder) {
  auto forward = with_second_layer(std::make_unique<FixedRun>(false), 0.3);
  auto backward = with_second_layer(std::make_unique<FixedRun>(true), 0.3);
  std::vector<Observation> a, b;
  forward->replay({5, 6, 7}, a);
  backward->replay({5, 6, 7}, b);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t o = 0; o < a.size(); ++o) EXPECT_EQ(a[o].event, b[b.size() - 1 - o].event);
  EXPECT_TRUE(testing::binomial_count_within_sigmas(static_cast<double>(a.size()), 20000, 0.3));
  std::vector<Observation> c;
  forward->replay({5, 6, 8}, c);  // another replication keeps other events
  EXPECT_FALSE(std::equal(a.begin(), a.begin() + 100, c.begin(), [](auto& x, auto& y) { return x.event == y.event; }));
  EXPECT_NE(with_second_layer(std::make_unique<FixedRun>(false), 1.0).get(), nullptr);
  auto scheme = testing::create_scheme("ddprof", {{"rate", 100}, {"keep", 0.5}});
  ASSERT_EQ(scheme->estimators().size(), 7u);
  EXPECT_EQ(scheme->estimators()[6].name, "bytes_one_layer");
  const Trace trace = make_trace({60, 90});
  const std::vector<Observation> one = {{1, 2, 5, 200.0}};
  std::vector<double> w(7);
  scheme->weigh(trace, one, w);
  EXPECT_EQ(w[0], 400.0);  // T n / keep
  EXPECT_EQ(w[6], 200.0);  // T n
  EXPECT_THROW(testing::create_scheme("ddprof", {{"keep", 0}}), InputError);
}

// Var[T n]/T^2: sigma for sigma < 1 (Poisson); e/(e - 1) at whole multiples of T for
// large sigma; continuous at integers.
TEST(AccumulatorSampler, CountVarianceClosedForm) {
  EXPECT_NEAR(accumulator_count_variance(0.25), 0.25, 1e-15);
  EXPECT_NEAR(accumulator_count_variance(40.0), std::exp(1.0) / std::expm1(1.0), 1e-12);
  EXPECT_NEAR(accumulator_count_variance(3 - 1e-9), accumulator_count_variance(3.0), 1e-7);
}

TEST(AccumulatorScheme, CatalogueDefaults) {
  EXPECT_EQ(parameter_default(catalogue_entry("chromium"), "rate"), 131072);
  EXPECT_EQ(parameter_default(catalogue_entry("ddprof"), "rate"), 524288);
  EXPECT_THROW(testing::create_scheme("chromium", {{"rate", 0}}), InputError);
}

// Mixed sizes up to 16 T on 3 threads (stack groups: a size bucket of a few 8-16 T
// allocations is never missed in 3000 replications): every row matches the continuous-model theory
// (T n unbiased with the closed-form variance; Horvitz-Thompson; raw counts biased by
// pi - 1) within 5 se; T = 4096 keeps the +1/(2T) truncation far below the noise.
TEST(AccumulatorScheme, MatchesTheoryOnMixedSizes) {
  const auto result = run_scenario_text(R"({"name": "t", "seed": 128, "replications": 3000,
    "trace": {"allocations": 3000, "threads": 3,
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.8, "distribution": "log_uniform", "min": 1, "max": 512},
        {"weight": 0.2, "distribution": "lognormal", "median": 4096, "sigma": 1.0, "max": 65536}]},
      "stacks": {"rule": "random", "count": 4},
      "lifetime": {"distribution": "exponential", "mean": 500}},
    "schemes": [{"scheme": "chromium", "rate": 4096},
                {"scheme": "ddprof", "rate": 4096, "keep": 0.25, "label": "two-layer"}],
    "groups": ["total", "stack"], "windows": ["allocated", "live_at_end"]})",
                                        2);
  EXPECT_GT(expect_rows_match_theory(result, "chromium"), 40);
  EXPECT_GT(expect_rows_match_theory(result, "two-layer"), 40);
  EXPECT_LT(*find_row(result, "chromium", "count_raw").theory.bias, 0.0);
  // Forgetting the second layer's 1/keep: exactly -75 % in expectation.
  EXPECT_NEAR(*find_row(result, "two-layer", "bytes_one_layer").theory.bias /
                  find_row(result, "two-layer", "bytes_one_layer").truth,
              -0.75, 1e-12);
}

// DataDog/libdatadog PR #2344: a 4 MiB allocation at T = 512 KiB. T n is
// unbiased with variance T^2 (1 - e^-8) e/(e - 1) (s = 8 T); Horvitz-Thompson is
// unbiased with s^2 e^-8 / (1 - e^-8), ~74 times less: same mean, different variance.
TEST(AccumulatorScheme, WholePeriodsVersusHorvitzThompsonVariance) {
  const auto result = run_scenario_text(R"({"name": "t", "seed": 2344, "replications": 20000,
    "trace": {"allocations": 1, "sizes": {"distribution": "constant", "size": 4194304}},
    "schemes": [{"scheme": "ddprof"}]})",
                                        2);
  const double T = 524288, s = 4194304;
  const Metrics& tn = find_row(result, "ddprof", "bytes");
  EXPECT_NEAR(*tn.theory.var, T * T * -std::expm1(-8.0) * std::exp(1.0) / std::expm1(1.0), 1e-6 * T * T);
  EXPECT_TRUE(testing::within_sigmas(tn.var, *tn.theory.var, tn.se_var));
  EXPECT_TRUE(testing::within_sigmas(tn.bias, 0.0, std::sqrt(*tn.theory.var / 20000)));
  const Metrics& ht = find_row(result, "ddprof", "bytes_ht");
  EXPECT_NEAR(*ht.theory.var, s * s * std::exp(-8.0) / -std::expm1(-8.0), 1e-6 * s * s);
  EXPECT_GT(*tn.theory.var / *ht.theory.var, 70);
}

}  // namespace
}  // namespace allocsim
