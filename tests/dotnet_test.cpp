#include "allocsim/sampler/systems/dotnet/dotnet.h"

#include <gtest/gtest.h>

#include <cmath>

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

std::unique_ptr<Scheme> make_dotnet(const nlohmann::json& params) { return testing::create_scheme("dotnet", params); }

// Uniforms v (playing 1 - u) that make the budget exactly `failures`: the code's
// floor(-T ln v) and the document's floor(ln v / ln(1 - 1/T)) both land mid-way.
double code_uniform(double failures, double T) { return std::exp(-(failures + 0.5) / T); }
double document_uniform(double failures, double T) { return std::exp((failures + 0.5) * std::log1p(-1 / T)); }

TEST(DotnetObjectSize, PointerAligned) {
  EXPECT_EQ(dotnet_object_size(0, 8), 0u);
  EXPECT_EQ(dotnet_object_size(1, 8), 8u);
  EXPECT_EQ(dotnet_object_size(8, 8), 8u);
  EXPECT_EQ(dotnet_object_size(9, 8), 16u);
  EXPECT_EQ(dotnet_object_size(4, 4), 4u);
  EXPECT_EQ(dotnet_object_size(5, 4), 8u);
  EXPECT_EQ(dotnet_object_size((std::uint64_t{1} << 48) - 3, 8), std::uint64_t{1} << 48);
}

// T = 100. Requests 0, 7, 20, 24, 100 are objects of 0, 8, 24, 24, 104 bytes.
// Budget 8: the 0-byte object leaves it at 8; the 8-byte one uses it up exactly
// (budget = size: not sampled, 0 left); the 24-byte one is sampled at offset 0.
// Budget 23: the next 24-byte one is sampled at its last byte, offset 23.
// Budget 5000: the 104-byte one is not sampled.
TEST(DotnetSampler, ScriptedBudgetsForBothDraws) {
  const double T = 100;
  const Trace trace = make_trace({0, 7, 20, 24, 100});
  for (bool document : {false, true}) {
    auto u = [&](double failures) { return document ? document_uniform(failures, T) : code_uniform(failures, T); };
    std::vector<ScriptedStream> lanes = {ScriptedStream({u(8), u(23), u(5000)})};
    DotnetSampler sampler(T, 8, document);
    std::vector<Observation> out;
    sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
    ASSERT_EQ(out.size(), 2u) << document;
    EXPECT_EQ(out[0].event, 2u);
    EXPECT_EQ(out[0].offset, 0u);
    EXPECT_EQ(out[1].event, 3u);
    EXPECT_EQ(out[1].offset, 23u);
    EXPECT_EQ(lanes[0].uniforms_used(), 3u);

    // q = 0.99: bytes 24 / (1 - 0.99^24) = 111.981, count 4.66588; bytes_nb's
    // registers: 1 sample and tail bytes s - offset = 24 and 1, so failed trials
    // q/p + s - offset = 99 + 24 - 0 = 123 and 99 + 24 - 23 = 100. Registers per
    // observation: bytes, its variance, samples, tail bytes, count, its variance.
    std::vector<double> w(12);
    const auto scheme = make_dotnet({{"rate", T}, {"draw", document ? "document" : "code"}});
    scheme->weigh(trace, out, w);
    const double expected[] = {111.98111144795614, 1, 24, 4.665879643664839,
                               111.98111144795614, 1, 1,  4.665879643664839};
    for (std::size_t o = 0; o < 2; ++o) {
      for (std::size_t j = 0; j < 4; ++j) EXPECT_NEAR(w[6 * o + (j == 0 ? 0 : j + 1)], expected[4 * o + j], 1e-11) << j;
    }
    EXPECT_NEAR(scheme->finalize(1, std::vector<double>{w[2], w[3]}), 123, 1e-9);
    EXPECT_NEAR(scheme->finalize(1, std::vector<double>{w[8], w[9]}), 100, 1e-9);
  }
}

TEST(DotnetSampler, HugeObjectsAndThreads) {
  const double T = std::ldexp(1.0, 40);
  const std::uint64_t two48 = std::uint64_t{1} << 48;
  // Thread 0: budget 2^48 - 1 meets the 2^48-byte object at its last byte.
  // Thread 1: budget 2^48 passes the same size (exactly used up).
  const Trace trace = make_trace({two48, two48}, {0, 1});
  std::vector<ScriptedStream> lanes = {ScriptedStream({code_uniform(std::ldexp(1.0, 48) - 1, T), 0.5}),
                                       ScriptedStream({code_uniform(std::ldexp(1.0, 48), T)})};
  DotnetSampler sampler(T, 8, false);
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].event, 0u);
  EXPECT_EQ(out[0].offset, two48 - 1);
  std::vector<double> w(6);
  make_dotnet({{"rate", T}})->weigh(trace, out, w);
  EXPECT_EQ(w[3], 1);  // tail bytes s - offset; q/p + s - offset = (T - 1) + 1
  EXPECT_DOUBLE_EQ(w[0], std::ldexp(1.0, 48) / -std::expm1(std::ldexp(1.0, 48) * std::log1p(-1 / T)));
  EXPECT_THROW(make_dotnet({{"pointer_size", 6u}}), InputError);
  EXPECT_THROW(make_dotnet({{"draw", "exact"}}), InputError);
}

TEST(DotnetScheme, CatalogueListsDefaultsSourceAndVariants) {
  const nlohmann::json entry = catalogue_entry("dotnet");
  EXPECT_EQ(parameter_default(entry, "rate"), 102400);
  EXPECT_EQ(parameter_default(entry, "pointer_size"), 8);
  EXPECT_EQ(parameter_default(entry, "draw"), "code");
  EXPECT_NE(entry["source"].get<std::string>().find("RandomizedAllocationSampling.md"), std::string::npos);
  EXPECT_GE(entry["variants"].size(), 2u);
}

// Mixed sizes including 0-byte requests (never sampled: count bias -1 each), 3
// threads, groups by stack and size bucket, both windows, both draws. Every row:
// |bias - theory_bias| <= 5 se, |var - theory_var| <= 5 se_var (helper; false alarm
// ~5.7e-7 per comparison). With the document's draw the theory bias of both byte
// estimators is 0; with the code's it is the small derived one.
TEST(DotnetScheme, EstimatorsUnbiasedAsDerived) {
  const std::string json = R"({"name": "t", "seed": 2002, "replications": 2000,
    "trace": {"allocations": 20000, "threads": 3,
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.02, "distribution": "constant", "size": 0},
        {"weight": 0.78, "distribution": "log_uniform", "min": 1, "max": 512},
        {"weight": 0.2, "distribution": "lognormal", "median": 4096, "sigma": 1.0, "max": 65536}]},
      "stacks": {"rule": "random", "count": 4},
      "lifetime": {"distribution": "exponential", "mean": 5000}},
    "schemes": [{"scheme": "dotnet"}, {"scheme": "dotnet", "draw": "document", "label": "document"}],
    "groups": ["total", "stack", "size_bucket"], "windows": ["allocated", "live_at_end"]})";
  const auto result = run_scenario_text(json, 2);
  EXPECT_GT(expect_rows_match_theory(result, "dotnet"), 30);
  EXPECT_GT(expect_rows_match_theory(result, "document"), 30);
  for (const char* estimator : {"bytes", "bytes_nb"}) {
    const Metrics& m = find_row(result, "document", estimator);
    EXPECT_NEAR(*m.theory.bias, 0.0, 1e-9 * m.truth) << estimator;
  }
  // The code's draw: bytes_nb loses about half a byte per expected sample.
  const Metrics& nb = find_row(result, "dotnet", "bytes_nb");
  const Metrics& count = find_row(result, "dotnet", "count");
  EXPECT_LT(*nb.theory.bias, 0.0);
  EXPECT_GT(*nb.theory.bias, -0.51 * nb.truth / 102400);
  EXPECT_LT(*count.theory.bias, -300);  // ~400 zero-byte objects are never counted
}

// The document: estimator 1's total variance is at most N q/p for N bytes, reached
// for 1-byte objects (here the smallest object, 8 bytes: N q/p (1 - O(8/T))).
// Estimator 2's variance is (q/p^2) sum_i (1 - q^s_i), the negative binomial s q/p^2
// in expectation, and the weighted estimator is better for large objects.
TEST(DotnetScheme, VarianceAgainstTheDocumentsBounds) {
  const double T = 102400, q_over_p = T - 1;
  const auto small = run_scenario_text(R"({"name": "t", "seed": 9, "replications": 2000,
    "trace": {"allocations": 200000, "sizes": {"distribution": "constant", "size": 8}},
    "schemes": [{"scheme": "dotnet", "draw": "document"}]})",
                                       2);
  const Metrics& ht = find_row(small, "dotnet", "bytes");
  const Metrics& nb = find_row(small, "dotnet", "bytes_nb");
  const double N = 1.6e6;
  EXPECT_LE(*ht.theory.var, N * q_over_p);
  EXPECT_GE(*ht.theory.var, N * q_over_p * (1 - 8 / T));
  EXPECT_LE(ht.var, N * q_over_p + testing::kSigmas * ht.se_var);
  EXPECT_TRUE(testing::within_sigmas(ht.var, *ht.theory.var, ht.se_var));
  const double pi = -std::expm1(8 * std::log1p(-1 / T));
  EXPECT_NEAR(*nb.theory.var, 200000 * pi * q_over_p * T, 1e-9 * *nb.theory.var);
  EXPECT_TRUE(testing::within_sigmas(nb.var, *nb.theory.var, nb.se_var));

  // Objects of 4T: per object s^2 q^s / (1 - q^s) = 0.304 T^2 against
  // (q/p^2)(1 - q^s) = 0.982 T^2.
  const auto large = run_scenario_text(R"({"name": "t", "seed": 10, "replications": 4000,
    "trace": {"allocations": 100, "sizes": {"distribution": "constant", "size": 409600}},
    "schemes": [{"scheme": "dotnet", "draw": "document"}]})",
                                       2);
  const Metrics& ht_large = find_row(large, "dotnet", "bytes");
  const Metrics& nb_large = find_row(large, "dotnet", "bytes_nb");
  EXPECT_NEAR(*ht_large.theory.var, 100 * 16 * T * T * std::exp(-4.0) / -std::expm1(-4.0), 1e-3 * *ht_large.theory.var);
  EXPECT_NEAR(*nb_large.theory.var, 100 * T * T * -std::expm1(-4.0), 1e-3 * *nb_large.theory.var);
  EXPECT_TRUE(testing::within_sigmas(ht_large.var, *ht_large.theory.var, ht_large.se_var));
  EXPECT_TRUE(testing::within_sigmas(nb_large.var, *nb_large.theory.var, nb_large.se_var));
}

}  // namespace
}  // namespace allocsim
