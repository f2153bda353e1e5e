#include "allocsim/sampler/references/poisson.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_support.h"

namespace allocsim {
namespace {

using testing::find_row;
using testing::make_trace;
using testing::run_scenario_text;
using testing::ScriptedStream;

// T = 100 and scripted uniforms u give gaps -100 ln u. With u = e^-0.5 the first
// point sits 50 bytes in; with u = e^-1.2 the next gap is 120 bytes; and so on.
TEST(PoissonSampler, ScriptedMechanism) {
  const Trace trace = make_trace({0, 30, 40, 300, 10});
  std::vector<ScriptedStream> lanes = {
      ScriptedStream({std::exp(-0.5), std::exp(-1.2), std::exp(-0.3), std::exp(-0.4), std::exp(-5.0)})};
  PoissonSampler sampler(100);
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  // Byte stream: [0,0) [0,30) [30,70) [70,370) [370,380).
  // Points at 50 (gap 50), 170 (+120), 200 (+30), 240 (+40), 740 (+500).
  // Event 2 holds 50 at offset 20; event 3 holds 170, 200, 240: n = 3, first at 100.
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].event, 2u);
  EXPECT_EQ(out[0].samples, 1u);
  EXPECT_EQ(out[0].offset, 20u);
  EXPECT_EQ(out[1].event, 3u);
  EXPECT_EQ(out[1].samples, 3u);
  EXPECT_EQ(out[1].offset, 100u);
  EXPECT_EQ(lanes[0].uniforms_used(), 5u);
}

TEST(PoissonSampler, HugeAllocationCountsManySamplesWithoutOverflow) {
  const std::uint64_t huge = std::uint64_t{1} << 48;
  const Trace trace = make_trace({huge});
  std::vector<RandomStream> lanes = {RandomStream({1, 2, 0}, 0)};
  PoissonSampler sampler(std::ldexp(1.0, 40));
  std::vector<Observation> out;
  sampler.replay(trace, std::span<RandomStream>(lanes), out);
  ASSERT_EQ(out.size(), 1u);
  // n ~ Poisson(2^48 / 2^40 = 256): 5 sigma is +-80.
  EXPECT_NEAR(out[0].samples, 256.0, 80.0);
}

TEST(PoissonSampler, ThreadsKeepTheirOwnCountdown) {
  // Two threads, scripted so that thread 0's first gap is 10 and thread 1's is 1000:
  // thread 1's 100-byte allocations are never sampled, thread 0's first one is.
  const Trace trace = make_trace({100, 100, 100, 100}, {0, 1, 0, 1});
  std::vector<ScriptedStream> lanes = {ScriptedStream({std::exp(-0.1), std::exp(-100.0)}),
                                       ScriptedStream({std::exp(-10.0)})};
  PoissonSampler sampler(100);
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].event, 0u);
  EXPECT_EQ(out[0].offset, 10u);
}

// One group of S bytes: n ~ Poisson(S/T). The engine's metrics must match the
// closed forms within 5 Monte Carlo standard errors (two-sided false alarm
// ~5.7e-7 per assertion, fixed seed).
TEST(PoissonScheme, MetricsMatchPoissonClosedForms) {
  for (int size : {1000, 4096, 20000}) {
    const std::string json = R"({"name": "t", "seed": 99, "replications": 20000,
      "trace": {"allocations": 1, "sizes": {"distribution": "constant", "size": )" +
                             std::to_string(size) + R"(}},
      "schemes": [{"scheme": "poisson", "rate": 4096}]})";
    const auto result = run_scenario_text(json, 2);
    const Metrics& m = find_row(result, "poisson", "bytes");
    const double lambda = size / 4096.0;
    const double R = 20000;
    EXPECT_EQ(m.truth, size);
    EXPECT_TRUE(testing::within_sigmas(m.bias, 0.0, std::sqrt(4096.0 * size / R))) << size;
    EXPECT_TRUE(testing::within_sigmas(m.var, 4096.0 * size, m.se_var)) << size;
    const double p_any = 1 - std::exp(-lambda);
    EXPECT_TRUE(testing::within_sigmas(m.p_any_sample, p_any, std::sqrt(p_any * (1 - p_any) / R))) << size;
    EXPECT_TRUE(testing::within_sigmas(m.mape, *m.theory.mape, m.se_mape)) << size;
    EXPECT_TRUE(testing::within_sigmas(m.cmape, *m.theory.cmape, m.se_cmape)) << size;
    EXPECT_DOUBLE_EQ(*m.theory.p_any_sample, p_any);
  }
}

// Memorylessness (heapprofd-sampling.md, "Sampling probabilities"): 1 MiB in one allocation
// and 1 MiB in 256 allocations of 4 KiB have the same P(>=1 sample) and error.
TEST(PoissonScheme, SplittingAnAllocationChangesNothing) {
  auto run = [](int count, int size) {
    const std::string json = R"({"name": "t", "seed": 5, "replications": 20000,
      "trace": {"allocations": )" +
                             std::to_string(count) + R"(, "sizes": {"distribution": "constant", "size": )" +
                             std::to_string(size) + R"(}}, "schemes": [{"scheme": "poisson", "rate": 524288}]})";
    const ScenarioResult result = run_scenario_text(json, 2);
    return find_row(result, "poisson", "bytes");
  };
  const Metrics whole = run(1, 1 << 20), split = run(256, 4096);
  const double p = 1 - std::exp(-2.0), R = 20000;
  const double se_diff = std::sqrt(2 * p * (1 - p) / R);
  EXPECT_TRUE(testing::within_sigmas(whole.p_any_sample, split.p_any_sample, se_diff));
  EXPECT_TRUE(testing::within_sigmas(whole.mape, split.mape, std::hypot(whole.se_mape, split.se_mape)));
}

TEST(PoissonScheme, CountEstimatorIsUnbiasedForMixedSizes) {
  const std::string json = R"({"name": "t", "seed": 3, "replications": 4000,
    "trace": {"allocations": 500, "sizes": {"distribution": "log_uniform", "min": 1, "max": 100000}},
    "schemes": [{"scheme": "poisson", "rate": 8192}]})";
  const auto result = run_scenario_text(json, 2);
  const Metrics& m = find_row(result, "poisson", "count");
  EXPECT_EQ(m.truth, 500);
  // Variance sum_i 1/(e^(s_i/T) - 1) from the per-allocation theory.
  ASSERT_TRUE(m.theory.var.has_value());
  EXPECT_TRUE(testing::unbiased(m));
  EXPECT_TRUE(testing::within_sigmas(m.var, *m.theory.var, m.se_var));
}

}  // namespace
}  // namespace allocsim
