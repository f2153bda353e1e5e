#include <gtest/gtest.h>

#include <cmath>

#include "allocsim/sampler/systems/ocaml/ocaml.h"
#include "allocsim/sampler/systems/v8/v8.h"
#include "allocsim/util/error.h"
#include "scheme_theory_checks.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::catalogue_entry;
using testing::create_scheme;
using testing::expect_rows_match_theory;
using testing::find_row;
using testing::make_trace;
using testing::parameter_default;
using testing::run_scenario_text;
using testing::ScriptedStream;

// rate 100, steps trunc(-rate ln u): 50; 30 -> 20 left; 20 (not < 20) sampled at
// offset 19; step 3 clamped to 8: 7 -> 1 left; 1 sampled at offset 0; step 100.
TEST(V8Sampler, ScriptedStepsClampedToEightBytes) {
  const double T = 100;
  auto u = [&](double step) { return std::exp(-(step + 0.5) / T); };
  const Trace trace = make_trace({30, 20, 7, 1});
  std::vector<ScriptedStream> lanes = {ScriptedStream({u(50), u(3), u(100)})};
  V8Sampler sampler(T);
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].event, 1u);
  EXPECT_EQ(out[0].offset, 19u);
  EXPECT_EQ(out[1].event, 3u);
  EXPECT_EQ(out[1].offset, 0u);
  EXPECT_EQ(lanes[0].uniforms_used(), 3u);
  EXPECT_EQ(v8_next_step(1e-300, 1e9), 2147483647u);
}

// ScaleSample rounds half up: one sample of size = rate scales to 1.582 -> 2;
// size = 2 rate: 1.157 -> 1; three of size = rate: 4.746 -> 5.
TEST(V8Scheme, ScaleSampleRoundsHalfUp) {
  EXPECT_EQ(v8_scale_sample(1, 100, 100), (std::pair<double, double>{2, 200}));
  EXPECT_EQ(v8_scale_sample(1, 200, 100), (std::pair<double, double>{1, 200}));
  EXPECT_EQ(v8_scale_sample(3, 300, 100), (std::pair<double, double>{5, 500}));
  EXPECT_EQ(v8_scale_sample(0, 0, 100), (std::pair<double, double>{0, 0}));
  auto scheme = create_scheme("v8", {{"rate", 100}});
  const double registers[] = {300, 3};
  EXPECT_EQ(scheme->finalize(2, registers), 500.0);
  EXPECT_EQ(scheme->finalize(3, registers), 5.0);
  EXPECT_EQ(parameter_default(catalogue_entry("v8"), "rate"), 524288);
  EXPECT_THROW(create_scheme("v8", {{"rate", 0}}), InputError);
}

// Rounded counts of a one-allocation entry (V8's ScaleSample): size = rate gives
// 2 (1 - e^-1) - 1 = +26.4 %, size = 2 rate gives (1 - e^-2) - 1 = -13.5 %; the
// unrounded Horvitz-Thompson count is unbiased. Tolerance 5 se of the rounded value.
TEST(V8Scheme, RoundedCountsBiasAsDerived) {
  for (auto [size, rounded] : {std::pair{524288, 2.0}, std::pair{1048576, 1.0}}) {
    const auto result = run_scenario_text(R"({"name": "t", "seed": 8, "replications": 20000,
      "trace": {"allocations": 1, "sizes": {"distribution": "constant", "size": )" +
                                              std::to_string(size) + R"(}},
      "schemes": [{"scheme": "v8"}]})",
                                          2);
    const double pi = -std::expm1(-size / 524288.0);
    const double se = rounded * std::sqrt(pi * (1 - pi) / 20000);
    EXPECT_TRUE(testing::within_sigmas(find_row(result, "v8", "count_rounded").bias, rounded * pi - 1, se)) << size;
    EXPECT_TRUE(testing::within_sigmas(find_row(result, "v8", "count").bias, 0.0, std::sqrt((1 - pi) / pi / 20000)))
        << size;
  }
}

// The theory's pi = 1 - e^(-s/T) is exact only after a decremented step; right after
// a sample the fresh step floor(E) samples with 1 - e^(-(s+1)/T) (v8.h). Summed over
// this trace with P(fresh) = P(the thread's previous allocation was sampled), the
// extra inclusion shifts the true bias from the theory's 0 by at most 0.83 Monte Carlo
// standard errors (count of the total: +6.2 allocations against se 7.5); 0.6 se in
// the [16, 32) size bucket, 0.5 se in any stack, < 0.03 se above 512 bytes. Against
// the 5 se tolerance that leaves P(false failure) per row below P(Z > 4.17) = 1.5e-5.
TEST(V8Scheme, MatchesTheoryOnMixedSizes) {
  const auto result = run_scenario_text(R"({"name": "t", "seed": 88, "replications": 3000,
    "trace": {"allocations": 3000, "threads": 2,
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.8, "distribution": "log_uniform", "min": 16, "max": 512},
        {"weight": 0.2, "distribution": "lognormal", "median": 4096, "sigma": 1.0, "max": 16384}]},
      "stacks": {"rule": "random", "count": 4}},
    "schemes": [{"scheme": "v8", "rate": 4096}], "groups": ["total", "stack", "size_bucket"]})",
                                        2);
  EXPECT_GT(expect_rows_match_theory(result, "v8"), 20);
}

// lambda = 0.1, gaps floor(1 + ln u / ln 0.9): 4; 8 bytes (2 words with the header)
// -> 2 left; 16 bytes (3 words) sampled at word 1, 1 word left, gap 5 > 1: n = 1.
// 100 bytes (13 + 1 = 14 words) sampled at word 3, 10 left: gaps 3, 7 fit (n = 3,
// 0 left), gap 2 does not.
TEST(OcamlSampler, ScriptedBinomialOverWordsWithHeader) {
  auto u = [](double gap) { return std::pow(0.9, gap - 0.5); };
  const Trace trace = make_trace({8, 16, 100});
  std::vector<ScriptedStream> lanes = {ScriptedStream({u(4), u(5), u(3), u(7), u(2)})};
  OcamlSampler sampler(0.1);
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].event, 1u);
  EXPECT_EQ(out[0].offset, 1u);
  EXPECT_EQ(out[0].samples, 1u);
  EXPECT_EQ(out[1].offset, 3u);
  EXPECT_EQ(out[1].samples, 3u);
  EXPECT_EQ(lanes[0].uniforms_used(), 5u);
  auto scheme = create_scheme("ocaml", {{"sampling_rate", 0.1}});
  std::vector<double> w(6);
  scheme->weigh(trace, out, w);
  EXPECT_DOUBLE_EQ(w[3], 240.0);
  EXPECT_DOUBLE_EQ(w[4], 240.0);
  EXPECT_DOUBLE_EQ(w[5], 3 / (0.1 * 14));
  EXPECT_EQ(scheme->allocated_size(trace, 2), 112u);
  EXPECT_THROW(create_scheme("ocaml", nlohmann::json::object()), InputError);
  EXPECT_THROW(create_scheme("ocaml", {{"sampling_rate", 0}}), InputError);
  EXPECT_THROW(create_scheme("ocaml", {{"sampling_rate", 1.5}}), InputError);
}

// Binomial(whsize, lambda) per block: exact theory for every row; read as payload,
// the estimate is over by 8 whsize - s per block (+1 header word and word rounding).
TEST(OcamlScheme, MatchesTheoryAndHeaderWordBias) {
  const auto result = run_scenario_text(R"({"name": "t", "seed": 2016, "replications": 3000,
    "trace": {"allocations": 3000, "threads": 2,
      "sizes": {"distribution": "log_uniform", "min": 8, "max": 4096},
      "stacks": {"rule": "random", "count": 4},
      "lifetime": {"distribution": "exponential", "mean": 500}},
    "schemes": [{"scheme": "ocaml", "sampling_rate": 0.001}],
    "groups": ["total", "stack", "size_bucket"], "windows": ["allocated", "live_at_end"]})",
                                        2);
  EXPECT_GT(expect_rows_match_theory(result, "ocaml"), 30);
  const Metrics& payload = find_row(result, "ocaml", "bytes_as_wosize", GroupKind::size_bucket, "[8,16)");
  EXPECT_GT(*payload.theory.bias / payload.truth, 0.5);  // 8..15 bytes: 24 bytes counted
}

}  // namespace
}  // namespace allocsim
