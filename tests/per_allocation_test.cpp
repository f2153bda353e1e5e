// per-allocation (sampler/references/per_allocation.h): Bernoulli(1/N) sampling of allocations.
#include "allocsim/sampler/references/per_allocation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

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

// The uniform whose skip floor(ln u / ln(1 - 1/N)) + 1 is k.
double u_for_skip(double k, double N) { return std::exp((k - 0.5) * std::log1p(-1.0 / N)); }

std::vector<Observation> replay(double N, const Trace& trace, std::vector<ScriptedStream>& lanes) {
  std::vector<Observation> out;
  PerAllocationSampler(N).replay(trace, std::span<ScriptedStream>(lanes), out);
  return out;
}

// N = 4, one thread, skips 2, 1, 3, 5: allocations 1 (size 0: sampled, weighs 0),
// 2 (20 -> 80) and 5 (50 -> 200); the skip drawn after allocation 5 is not reached.
TEST(PerAllocationSampler, GeometricSkipsScripted) {
  const Trace trace = make_trace({10, 0, 20, 30, 40, 50, 60});
  std::vector<ScriptedStream> lanes = {
      ScriptedStream({u_for_skip(2, 4), u_for_skip(1, 4), u_for_skip(3, 4), u_for_skip(5, 4)})};
  const auto out = replay(4, trace, lanes);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].event, 1u);
  EXPECT_EQ(out[0].weight, 0.0);
  EXPECT_EQ(out[1].event, 2u);
  EXPECT_EQ(out[1].weight, 80.0);
  EXPECT_EQ(out[2].event, 5u);
  EXPECT_EQ(out[2].weight, 200.0);
  for (const auto& o : out) EXPECT_EQ(o.samples, 1u);
  EXPECT_EQ(lanes[0].uniforms_used(), 4u);
}

// Each thread skips over its own allocations: thread 1's skip of 2 lands on its
// second allocation (event 3) whatever thread 0 does in between. A huge size
// weighs N * 2^48 exactly.
TEST(PerAllocationSampler, ThreadsSkipTheirOwnAllocations) {
  const std::uint64_t huge = std::uint64_t{1} << 48;
  const Trace trace = make_trace({5, 6, 7, huge}, {0, 1, 0, 1});
  std::vector<ScriptedStream> lanes = {ScriptedStream({u_for_skip(3, 10)}),
                                       ScriptedStream({u_for_skip(2, 10), u_for_skip(1, 10)})};
  const auto out = replay(10, trace, lanes);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].event, 3u);
  EXPECT_EQ(out[0].weight, 10 * 0x1.0p48);
}

TEST(PerAllocationSampler, RateOneSamplesEverything) {
  const Trace trace = make_trace({3, 0, 9});
  std::vector<ScriptedStream> lanes = {ScriptedStream({0.3, 0.2, 0.1, 0.9})};
  const auto out = replay(1, trace, lanes);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[2].weight, 9.0);
}

TEST(PerAllocation, CatalogueListsDefaults) {
  const nlohmann::json entry = catalogue_entry("per-allocation");
  EXPECT_EQ(parameter_default(entry, "rate"), 100);
  EXPECT_FALSE(entry["variants"].empty());
}

TEST(PerAllocation, RejectsBadParameters) {
  for (const char* params : {R"({"rate": 0.5})", R"({"rate": 0})", R"({"every": 10})"}) {
    EXPECT_THROW(testing::create_scheme_from_text("per-allocation", params), InputError) << params;
  }
}

// Mixed sizes on two threads, N = 50: bytes and count unbiased per group, with
// variance (N - 1) sum Z^2 and (N - 1) n, and P(>= 1 sample) = 1 - (1 - 1/N)^n.
TEST(PerAllocation, MixedTraceMatchesTheory) {
  const std::string json = R"({"name": "t", "seed": 4242, "replications": 4000,
    "trace": {"allocations": 2000, "threads": 2,
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.05, "distribution": "constant", "size": 0},
        {"weight": 0.8, "distribution": "log_uniform", "min": 1, "max": 1000},
        {"weight": 0.15, "distribution": "lognormal", "median": 20000, "sigma": 1.5}]},
      "stacks": {"rule": "component"}},
    "schemes": [{"scheme": "per-allocation", "rate": 50}],
    "groups": ["total", "stack", "size_bucket"], "windows": ["allocated"]})";
  const auto result = run_scenario_text(json, 2);
  EXPECT_GT(expect_rows_match_theory(result, "per-allocation"), 20);
  const Metrics& zero = find_row(result, "per-allocation", "count", GroupKind::stack, "component-0");
  EXPECT_NEAR(*zero.theory.var, 49 * zero.truth, 1e-9);
  EXPECT_EQ(*zero.theory.bias, 0.0);  // size-0 allocations are counted too
}

}  // namespace
}  // namespace allocsim
