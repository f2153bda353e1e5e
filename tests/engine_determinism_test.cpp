// The same scenario and seed give bit-identical results on 1 or N threads.
#include <gtest/gtest.h>

#include "allocsim/report/results_writer.h"
#include "test_support.h"

namespace allocsim {
namespace {

constexpr const char* kDeterminismScenario = R"({
  "name": "determinism", "seed": 123, "replications": 200,
  "trace": {"allocations": 3000, "threads": 4, "thread_assignment": "random",
            "sizes": {"distribution": "lognormal", "median": 40, "sigma": 1},
            "stacks": {"rule": "random", "count": 20},
            "lifetime": {"distribution": "exponential", "mean": 300}},
  "schemes": [{"scheme": "poisson", "rate": "$rate"}, {"scheme": "per-byte", "rate": "$rate"}],
  "sweep": {"rate": [512, 4096]},
  "groups": ["total", "stack", "size_bucket"],
  "windows": ["allocated", "live_at_end"],
  "outputs": {"estimates": true}
})";

std::string results_text(unsigned threads) {
  const Scenario scenario = parse_scenario(kDeterminismScenario, "determinism");
  RunOptions options;
  options.threads = threads;
  const ScenarioResult result = run_scenario(scenario, options);
  return metrics_csv(scenario, result) + estimates_csv(scenario, result);
}

TEST(EngineDeterminism, OneTwoAndFiveThreadsGiveIdenticalBytes) {
  const std::string one = results_text(1);
  EXPECT_GT(one.size(), 10000u);
  EXPECT_EQ(one, results_text(2));
  EXPECT_EQ(one, results_text(5));
}

// The peer schemes too: per-thread or per-P state, the JVM's shared generator (one
// per replication), a second sampling layer and a default-seeded engine.
TEST(EngineDeterminism, PeerSchemesIdenticalOnOneAndThreeThreads) {
  const std::string text = R"({
    "name": "determinism-peers", "seed": 77, "replications": 100,
    "trace": {"allocations": 3000, "threads": 4, "thread_assignment": "random",
              "sizes": {"distribution": "lognormal", "median": 40, "sigma": 2},
              "stacks": {"rule": "random", "count": 5}},
    "schemes": [{"scheme": "go", "rate": 4096, "tiny": true, "periods": 2}, {"scheme": "jvm", "interval": 4096},
                {"scheme": "chromium", "rate": 4096}, {"scheme": "ddprof", "rate": 4096, "keep": 0.5},
                {"scheme": "v8", "rate": 4096}, {"scheme": "ocaml", "sampling_rate": 0.001},
                {"scheme": "dotnet-tick", "stride": 4096, "keep": 0.5},
                {"scheme": "heapprofd", "rate": 4096, "seeding": "default"}],
    "groups": ["total", "stack"], "outputs": {"estimates": true}})";
  auto run = [&](unsigned threads) {
    const Scenario scenario = parse_scenario(text, "determinism-peers");
    RunOptions options;
    options.threads = threads;
    const ScenarioResult result = run_scenario(scenario, options);
    return metrics_csv(scenario, result) + estimates_csv(scenario, result);
  };
  const std::string one = run(1);
  EXPECT_GT(one.size(), 10000u);
  EXPECT_EQ(one, run(3));
}

TEST(EngineDeterminism, DifferentSeedDifferentResults) {
  const Scenario a = parse_scenario(kDeterminismScenario, "a");
  Scenario b = a;
  b.seed = 124;
  RunOptions options;
  EXPECT_NE(metrics_csv(a, run_scenario(a, options)), metrics_csv(b, run_scenario(b, options)));
}

TEST(EngineDeterminism, ReplicationCountNotMultipleOfBlock) {
  Scenario s = parse_scenario(kDeterminismScenario, "odd");
  s.replications = 45;  // one full block of 32 and a partial one
  RunOptions options;
  options.threads = 2;
  const ScenarioResult result = run_scenario(s, options);
  for (const auto& row : result.rows) ASSERT_EQ(row.metrics.replications, 45u);
  for (const auto& series : result.estimates) ASSERT_EQ(series.estimates.size(), 45u);
}

}  // namespace
}  // namespace allocsim
