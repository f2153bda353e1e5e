// Work units (engine/work_units.h), their partial states (engine/partial_state.h)
// and the sharded run: any split of the units among threads, shards or ranks gives
// the bytes of one process.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "allocsim/engine/experiment.h"
#include "allocsim/engine/partial_state.h"
#include "allocsim/engine/work_units.h"
#include "allocsim/report/results_writer.h"
#include "allocsim/util/error.h"

namespace allocsim {
namespace {

// Two points with traces of different sizes (so unequal unit costs), three
// schemes, every output; `replications` set by the test.
std::string scenario_text(std::uint64_t replications) {
  return R"({
  "name": "units", "seed": 31, "replications": )" +
         std::to_string(replications) + R"(,
  "trace": {"allocations": "$n", "threads": 3, "thread_assignment": "random",
            "sizes": {"distribution": "lognormal", "median": 48, "sigma": 1.2},
            "stacks": {"rule": "random", "count": 12},
            "lifetime": {"distribution": "exponential", "mean": 200}},
  "schemes": [{"scheme": "poisson", "rate": 2048}, {"scheme": "jemalloc", "rate": 4096},
              {"scheme": "per-byte", "rate": 2048}],
  "sweep": {"n": [1500, 4000]},
  "groups": ["total", "stack"],
  "windows": ["allocated", "live_at_end"],
  "outputs": {"estimates": true}
})";
}

std::string all_results(const Scenario& scenario, const ScenarioResult& result) {
  return metrics_csv(scenario, result) + intervals_csv(scenario, result) + profiles_csv(scenario, result) +
         estimates_csv(scenario, result);
}

ScenarioResult run_with(const Scenario& scenario, unsigned threads) {
  RunOptions options;
  options.threads = threads;
  return run_scenario(scenario, options);
}

TEST(WorkUnits, BlockSizeFollowsTheScenarioNotTheThreadCount) {
  // 2 points x 3 schemes x R replications; 32 per unit from 24 * 32 = 768 in all.
  EXPECT_EQ(replications_per_unit(parse_scenario(scenario_text(4), "u")), 1u);     // 24 in all
  EXPECT_EQ(replications_per_unit(parse_scenario(scenario_text(24), "u")), 6u);    // 144 / 24
  EXPECT_EQ(replications_per_unit(parse_scenario(scenario_text(128), "u")), 32u);  // 768 / 24
  const Scenario scenario = parse_scenario(scenario_text(24), "u");
  const std::vector<WorkUnit> units = plan_work_units(scenario);
  ASSERT_EQ(units.size(), 2u * 3 * 4);
  std::uint64_t replications = 0;
  for (const WorkUnit& unit : units) replications += unit.replications;
  EXPECT_EQ(replications, 2u * 3 * 24);
  // A job's units cost alike; per-byte (index 2) streams, so its units on the
  // second point's 4000-event trace cost more than on the first's 1500.
  EXPECT_EQ(units[0].cost, units[3].cost);
  EXPECT_GT(units[3 * 4 + 2 * 4].cost, units[2 * 4].cost);
}

TEST(WorkUnits, SmallScenarioIsIdenticalOnOneTwoAndFiveThreads) {
  // 24 replications of one point and scheme: 24 units of one replication each.
  const Scenario scenario = parse_scenario(R"({
    "name": "small", "seed": 5, "replications": 24,
    "trace": {"allocations": 2000, "sizes": {"distribution": "lognormal", "median": 40, "sigma": 1},
              "stacks": {"rule": "random", "count": 8}},
    "schemes": [{"scheme": "poisson", "rate": 1024}], "groups": ["total", "stack"],
    "outputs": {"estimates": true}})",
                                           "small");
  EXPECT_EQ(plan_work_units(scenario).size(), 24u);
  const std::string one = all_results(scenario, run_with(scenario, 1));
  EXPECT_GT(one.size(), 1000u);
  EXPECT_EQ(one, all_results(scenario, run_with(scenario, 2)));
  EXPECT_EQ(one, all_results(scenario, run_with(scenario, 5)));
}

TEST(WorkUnits, ShardsTakeEveryUnitOnceWithBalancedCost) {
  const std::vector<WorkUnit> units = plan_work_units(parse_scenario(scenario_text(24), "u"));
  double total = 0, largest = 0;
  for (const WorkUnit& unit : units) {
    total += unit.cost;
    largest = std::max(largest, unit.cost);
  }
  for (std::uint64_t N : {1u, 2u, 3u, 7u, 24u, 100u}) {
    std::vector<int> taken(units.size(), 0);
    for (std::uint64_t k = 0; k < N; ++k) {
      const std::vector<std::size_t> mine = units_of_shard(units, {k, N});
      EXPECT_TRUE(std::is_sorted(mine.begin(), mine.end()));
      double cost = 0;
      for (std::size_t u : mine) {
        ++taken[u];
        cost += units[u].cost;
      }
      // A unit goes where the middle of its cost falls, so a shard's cost is
      // within one unit's cost of an equal share.
      EXPECT_LE(cost, total / static_cast<double>(N) + largest) << k << "/" << N;
      if (N <= units.size() / 2) {
        EXPECT_GE(cost, total / static_cast<double>(N) - largest) << k << "/" << N;
      }
    }
    EXPECT_EQ(std::count(taken.begin(), taken.end(), 1), static_cast<long>(units.size())) << N;
  }
}

TEST(WorkUnits, ShardArgumentIsKOfN) {
  EXPECT_EQ(parse_shard("0/1", "--shard").count, 1u);
  EXPECT_EQ(parse_shard("6/7", "--shard").index, 6u);
  for (const char* bad : {"", "1", "1/1", "2/1", "0/0", "-1/2", "a/2", "1/b", "0/2/3", " 0/2", "0/2 "}) {
    try {
      parse_shard(bad, "--shard");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--shard: ", 0), 0u) << e.what();
    }
  }
}

// Shards computed separately, encoded, decoded and merged give the bytes of one run.
TEST(WorkUnits, ShardsMergedAreByteIdenticalToOneRun) {
  const Scenario scenario = parse_scenario(scenario_text(40), "u");
  const std::string single = all_results(scenario, run_with(scenario, 2));
  const std::vector<WorkUnit> plan = plan_work_units(scenario);
  for (std::uint64_t N : {1u, 3u, 50u}) {  // 50 > the 24 units: most shards are empty
    std::vector<BlockResult> units(plan.size());
    for (std::uint64_t k = 0; k < N; ++k) {
      const std::vector<std::size_t> mine = units_of_shard(plan, {k, N});
      RunOptions options;
      options.threads = 1 + static_cast<unsigned>(k % 3);
      PartialState part{part_header(scenario, {k, N}), {mine.begin(), mine.end()}, run_units(scenario, mine, options)};
      PartialState decoded = decode_partial_state(encode_partial_state(part), "part");
      ASSERT_EQ(decoded.units, part.units);
      for (std::size_t i = 0; i < mine.size(); ++i) units[mine[i]] = std::move(decoded.results[i]);
    }
    RunOptions options;
    options.threads = 1;
    EXPECT_EQ(single, all_results(scenario, merge_units(scenario, units, options))) << N;
  }
}

}  // namespace
}  // namespace allocsim
