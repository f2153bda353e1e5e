// The optimal-size-class scheme: the mechanism on scripted uniforms, the design
// it solves from the trace, and Monte Carlo against its closed form (unbiased,
// variance sum Z^2 (1 - p_Z) / p_Z, P(seen) = 1 - prod (1 - p_Z)).
#include <gtest/gtest.h>

#include <cmath>

#include "allocsim/design/optimal_design.h"
#include "allocsim/sampler/references/optimal_size_class.h"
#include "allocsim/sampler/systems/jemalloc/jemalloc_size_classes.h"
#include "allocsim/util/error.h"
#include "scheme_theory_checks.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::create_scheme;
using testing::expect_rows_match_theory;
using testing::find_row;
using testing::make_trace;
using testing::run_scenario_text;
using testing::ScriptedStream;

// A design of `samples` expected samples for `objective` over `classes`.
OptimalSizeClassConfig design(double samples, DesignObjective objective,
                              SizeClassTable classes = SizeClassTable::exact) {
  OptimalSizeClassConfig config;
  config.samples = samples;
  config.objective = objective;
  config.classes = classes;
  return config;
}

TEST(OptimalSizeClass, SamplesWhenTheUniformIsAtMostPAndWeighsZOverP) {
  // Sizes 100 and 300, one allocation each, budget 1 sample: unclipped,
  // p_Z = Z / 400 (p proportional to size for the allocated objective).
  const Trace trace = make_trace({100, 300});
  const auto plan = std::make_shared<const OptimalSizeClassPlan>(
      plan_optimal_size_class(trace, design(1.0, DesignObjective::allocated)));
  EXPECT_DOUBLE_EQ(plan->probability[0], 0.25);
  EXPECT_DOUBLE_EQ(plan->probability[1], 0.75);
  OptimalSizeClassSampler sampler(plan);
  std::vector<ScriptedStream> lanes{ScriptedStream({0.25, 0.76})};
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  ASSERT_EQ(out.size(), 1u);  // u = 0.25 <= 0.25 samples, u = 0.76 > 0.75 does not
  EXPECT_EQ(out[0].event, 0u);
  EXPECT_DOUBLE_EQ(out[0].weight, 400.0);
  EXPECT_EQ(lanes[0].uniforms_used(), 2u);
}

TEST(OptimalSizeClass, LiveObjectiveIgnoresFreedClassesAndJemallocClassesRoundUp) {
  Trace trace = make_trace({10, 10, 20, 5000});
  trace.free_time.mutable_data()[2] = 3;  // the 20-byte allocation dies: its class leaves the live objective
  const auto live = plan_optimal_size_class(trace, design(1.5, DesignObjective::live));
  EXPECT_EQ(live.probability[2], 0.0);
  // Live classes 10 (c = 2 * 100, a = 2) and 5000 (c = a * 5000^2, a = 1): 5000 is
  // clipped at 1, leaving 0.5 samples for the two 10-byte allocations: p = 1/4.
  EXPECT_DOUBLE_EQ(live.probability[3], 1.0);
  EXPECT_DOUBLE_EQ(live.probability[0], 0.25);
  const auto classes = plan_optimal_size_class(trace, design(2, DesignObjective::allocated, SizeClassTable::jemalloc));
  EXPECT_EQ(classes.measured[0], 16u);  // jemalloc's classes 8, 16, 32, 48, ...
  EXPECT_EQ(classes.measured[2], 32u);
  EXPECT_EQ(classes.demand.sizes, (std::vector<std::uint64_t>{16, 32, 5120}));
}

TEST(OptimalSizeClass, RejectsBadParameters) {
  EXPECT_THROW(create_scheme("optimal-size-class", {{"samples", 0}}), InputError);
  EXPECT_THROW(create_scheme("optimal-size-class", {{"objective", "peak"}}), InputError);
  EXPECT_THROW(create_scheme("optimal-size-class", {{"classes", "tcmalloc"}}), InputError);
  EXPECT_THROW(create_scheme("optimal-size-class", {{"stack_share", 1}}), InputError);
}

// A mixed trace; groups by exact size (one class per stack) and by four random
// stacks. Budget 60 expected samples out of 3000 allocations, allocated and stack
// objectives. Every row must match the closed form within 5 standard errors
// (scheme_theory_checks.h; false alarm ~5.7e-7 per comparison).
TEST(OptimalSizeClass, UnbiasedWithThePredictedVariance) {
  const std::string trace = R"("trace": {"allocations": 3000, "threads": 2,
      "sizes": {"distribution": "mixture", "components": [
        {"weight": 0.7, "distribution": "sequence", "sizes": [16, 48, 200]},
        {"weight": 0.3, "distribution": "sequence", "sizes": [1024, 8192, 40000]}]},
      "stacks": {"rule": "by_size"},
      "lifetime": {"distribution": "exponential", "mean": 500}})";
  const auto result = run_scenario_text(R"({"name": "t", "seed": 11, "replications": 4000, )" + trace + R"(,
    "schemes": [{"scheme": "optimal-size-class", "samples": 60, "label": "allocated"},
                {"scheme": "optimal-size-class", "samples": 60, "objective": "stack", "label": "stack"},
                {"scheme": "optimal-size-class", "samples": 60, "classes": "jemalloc", "label": "jemalloc"}],
    "groups": ["total", "stack"], "windows": ["allocated"]})",
                                        2);
  EXPECT_GE(expect_rows_match_theory(result, "allocated"), 7);
  EXPECT_GE(expect_rows_match_theory(result, "stack"), 7);
  EXPECT_GE(expect_rows_match_theory(result, "jemalloc"), 7);
  const Metrics& total = find_row(result, "allocated", "bytes");
  EXPECT_EQ(*total.theory.bias, 0.0);
  EXPECT_GT(*total.theory.var, 0.0);
  // The stack objective gives small classes more samples than the total's optimum:
  // the total's variance rises (it is optimal for the total only under "allocated").
  EXPECT_GT(*find_row(result, "stack", "bytes").theory.var, *total.theory.var);
}

// The design is solved once per trace and shared by the workers; the draws come
// from the lanes only, so 1 and 3 threads give bit-identical results.
TEST(OptimalSizeClass, SameResultsOnAnyThreadCount) {
  const std::string scenario = R"({"name": "t", "seed": 9, "replications": 200,
    "trace": {"allocations": 500, "threads": 3, "sizes": {"distribution": "log_uniform", "min": 1, "max": 4096}},
    "schemes": [{"scheme": "optimal-size-class", "samples": 25}]})";
  const auto one = run_scenario_text(scenario, 1), three = run_scenario_text(scenario, 3);
  ASSERT_EQ(one.rows.size(), three.rows.size());
  for (std::size_t r = 0; r < one.rows.size(); ++r) {
    EXPECT_EQ(one.rows[r].metrics.mean, three.rows[r].metrics.mean);
    EXPECT_EQ(one.rows[r].metrics.var, three.rows[r].metrics.var);
  }
  EXPECT_GT(find_row(one, "optimal-size-class", "bytes").var, 0.0);
}

}  // namespace
}  // namespace allocsim
