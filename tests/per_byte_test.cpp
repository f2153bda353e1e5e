#include "allocsim/sampler/references/per_byte.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_support.h"

namespace allocsim {
namespace {

using testing::find_row;
using testing::make_trace;
using testing::run_scenario_text;
using testing::ScriptedStream;

// T = 4: a byte is sampled when its raw word is below 2^64 / 4 = 2^62.
TEST(PerByteSampler, ScriptedMechanism) {
  const std::uint64_t hit = 1, miss = ~std::uint64_t{0};
  const Trace trace = make_trace({3, 0, 2});
  std::vector<ScriptedStream> lanes = {ScriptedStream({}, {miss, hit, hit, miss, miss})};
  PerByteSampler sampler(4);
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].event, 0u);
  EXPECT_EQ(out[0].samples, 2u);
  EXPECT_EQ(out[0].offset, 1u);
  EXPECT_EQ(lanes[0].words_used(), 5u);  // one word per byte, none for the empty allocation
}

TEST(PerByteSampler, RateOneSamplesEveryByte) {
  const Trace trace = make_trace({5, 7});
  std::vector<RandomStream> lanes = {RandomStream({1, 1, 1}, 0)};
  PerByteSampler sampler(1);
  std::vector<Observation> out;
  sampler.replay(trace, std::span<RandomStream>(lanes), out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].samples, 5u);
  EXPECT_EQ(out[1].samples, 7u);
}

// S bytes hold Binomial(S, 1/T): bias 0 within kSigmas se, variance S(T-1) within
// kSigmas se_var, MAPE and P(>=1) per the closed forms (two-sided, fixed seed).
TEST(PerByteScheme, MatchesBinomialClosedForms) {
  const std::string json = R"({"name": "t", "seed": 17, "replications": 5000,
    "trace": {"allocations": 40, "sizes": {"distribution": "sequence", "sizes": [20, 80]},
              "stacks": {"rule": "component"}},
    "schemes": [{"scheme": "per-byte", "rate": 256}], "groups": ["total", "stack"]})";
  const auto result = run_scenario_text(json, 2);
  for (const std::string group : {"all"}) {
    const Metrics& m = find_row(result, "per-byte", "bytes", GroupKind::total, group);
    EXPECT_EQ(m.truth, 2000);
    EXPECT_TRUE(testing::within_sigmas(m.bias, 0.0, testing::mean_standard_error(2000.0 * 255, 5000)));
    EXPECT_TRUE(testing::within_sigmas(m.var, 2000.0 * 255, m.se_var));
    EXPECT_TRUE(testing::within_sigmas(m.mape, *m.theory.mape, m.se_mape));
    const double p = 1 - std::pow(1 - 1 / 256.0, 2000);
    EXPECT_TRUE(testing::within_sigmas(m.p_any_sample, p, testing::proportion_standard_error(p, 5000)));
  }
  // The 20-byte and 80-byte sites separately: 400 and 1600 bytes.
  for (const auto& row : result.rows) {
    if (row.group_kind != GroupKind::stack || row.estimator != "bytes") continue;
    const double se = testing::mean_standard_error(row.metrics.truth * 255, 5000);
    EXPECT_TRUE(testing::within_sigmas(row.metrics.bias, 0.0, se)) << row.group;
  }
}

}  // namespace
}  // namespace allocsim
