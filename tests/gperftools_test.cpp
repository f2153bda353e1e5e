#include "allocsim/sampler/systems/gperftools/gperftools.h"

#include <gtest/gtest.h>

#include <cmath>

#include "scheme_theory_checks.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::make_trace;
using testing::ScriptedStream;
using testing::uniform_for_interval;

std::vector<Observation> replay(const Trace& trace, std::uint64_t period, std::uint64_t startup,
                                std::vector<double> uniforms, std::size_t* used = nullptr) {
  GperftoolsSampler sampler(trace, period, false, startup);
  std::vector<ScriptedStream> lanes = {ScriptedStream(std::move(uniforms))};
  std::vector<Observation> out;
  sampler.replay(trace, std::span<ScriptedStream>(lanes), out);
  if (used) *used = lanes[0].uniforms_used();
  return out;
}

// sampler.h: "when bytes_until_sample_ is X, we can allocate X bytes without
// triggering sampling; on the (X+1)th allocated byte, the containing allocation will
// be sampled" -- and the counter counts the size class, not the request.
TEST(GperftoolsSampler, CountsSizeClassesAndSamplesPastTheCounter) {
  Trace trace = make_trace({20, 20, 1, 7});
  trace.allocated = {30, 20, 8, 8};  // counted: 30, 20, 8, 8
  const double T = 1000;
  // Counter 50: 30 passes (20 left), 20 passes (0 left, not sampled at equality),
  // 8 is sampled at its first byte; the new counter 7 < 8 samples the last one too.
  std::size_t used = 0;
  const auto out = replay(
      trace, 1000, 0, {uniform_for_interval(50, T), uniform_for_interval(7, T), uniform_for_interval(99, T)}, &used);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].event, 2u);
  EXPECT_EQ(out[0].offset, 0u);
  EXPECT_EQ(out[1].event, 3u);
  EXPECT_EQ(out[1].offset, 7u);
  EXPECT_EQ(used, 3u);
}

// Above kMaxSize = 256 KiB do_malloc_pages counts the request, not the pages.
TEST(GperftoolsSampler, CountsRequestsAboveMaxSize) {
  Trace trace = make_trace({262145, 1});
  trace.allocated = {270336, 8};
  EXPECT_EQ(gperftools_counted_size(trace, 0), 262145u);
  EXPECT_EQ(gperftools_counted_size(trace, 1), 8u);
  // Counter 262145 - 1 + 8 = 262152: the large one passes, leaving 7 < 8.
  const auto out = replay(trace, 1 << 20, 0, {uniform_for_interval(262152, 1 << 20), 0.5});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].event, 1u);
}

// The main thread's start-up counter: nothing before it, the crossing allocation
// always, and thread 0 makes no draw for it.
TEST(GperftoolsSampler, StartupCounterSkipsThenSamplesTheCrossing) {
  const Trace trace = make_trace({60, 60, 10});
  std::size_t used = 0;
  const auto out = replay(trace, 4, 100, {uniform_for_interval(1000, 4)}, &used);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].event, 1u);  // 100 - 60 = 40 < 60
  EXPECT_EQ(used, 1u);          // only the redraw after the sample
}

// Closed form against Monte Carlo (synthetic traces have no allocated column, so
// the counted size is the request and pprof's weights are unbiased): bias, variance
// and P(>= 1 sample) at 5 standard errors, with both draws.
TEST(GperftoolsScheme, MatchesTheory) {
  const char* scenario = R"({
    "name": "gperftools-theory", "seed": 7, "replications": 4000,
    "trace": {"allocations": 400, "threads": 2,
              "sizes": {"distribution": "mixture", "components": [
                {"weight": 0.5, "distribution": "constant", "size": 24},
                {"weight": 0.3, "distribution": "constant", "size": 3000},
                {"weight": 0.2, "distribution": "constant", "size": 300000}]},
              "stacks": {"rule": "component"}},
    "schemes": [{"scheme": "gperftools", "rate": 65536, "startup_counter": 0},
                {"scheme": "gperftools", "rate": 65536, "startup_counter": 0, "faithful": false, "label": "ideal"}],
    "groups": ["total", "stack"]
  })";
  const ScenarioResult result = testing::run_scenario_text(scenario);
  // Rows with a closed form: estimators bytes and count (the sum-then-unbias ones
  // have none) in the total and 3 stack groups, 2 x 4 = 8 per scheme.
  EXPECT_EQ(testing::expect_rows_match_theory(result, "gperftools"), 8);
  EXPECT_EQ(testing::expect_rows_match_theory(result, "ideal"), 8);
}

TEST(GperftoolsScheme, SmallRequestsAreOverestimatedByTheirClass) {
  Trace trace = make_trace(std::vector<std::uint64_t>(1000, 24));
  trace.allocated.assign(1000, 32);
  const auto scheme = testing::create_scheme("gperftools", {{"rate", 524288}, {"startup_counter", 0}});
  const EstimatorTheory theory = scheme->theory(0);
  ASSERT_TRUE(theory.per_allocation());
  double bias = 0;
  for (const AllocationTheory& one : theory.all_allocations(trace)) bias += one.bias;
  // (1 - e^(-32/T)) / (1 - e^(-24/T)) - 1 = 1/3 to within 1e-4 at T = 512 KiB.
  EXPECT_NEAR(bias / (24.0 * 1000), 1.0 / 3, 1e-4);
  // The start-up counter makes allocations dependent: no closed form.
  EXPECT_FALSE(testing::create_scheme("gperftools", nlohmann::json::object())->theory(0).per_allocation());
}

}  // namespace
}  // namespace allocsim
