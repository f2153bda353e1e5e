// Consumer and deployment pitfalls that are options of existing schemes: a
// default-seeded engine (heapprofd seeding "default") and shared vs per-thread
// sampler state.
#include <gtest/gtest.h>

#include <cmath>

#include "allocsim/util/error.h"
#include "scheme_theory_checks.h"
#include "test_support.h"

namespace allocsim {
namespace {

using testing::expect_rows_match_theory;
using testing::find_row;
using testing::run_scenario_text;

// Replications are processes of the same program. With the default seed every
// process records the same samples: the estimate never varies (var = 0), so its
// error is one realisation's, however many processes are averaged. Shared (one
// counter per process) and per-thread counters both give Binomial(s, p') samples per
// allocation: same bias and variance as the theory.
TEST(Pitfalls, DefaultSeededEngineRepeatsOneRealisation) {
  const auto result = run_scenario_text(R"({"name": "t", "seed": 18, "replications": 2000,
    "trace": {"allocations": 2000, "threads": 4,
      "sizes": {"distribution": "log_uniform", "min": 16, "max": 4096},
      "stacks": {"rule": "random", "count": 4}},
    "schemes": [{"scheme": "heapprofd", "seeding": "default", "label": "same"},
                {"scheme": "heapprofd", "label": "shared"},
                {"scheme": "heapprofd", "counter": "thread", "label": "per-thread"}],
    "groups": ["total", "stack"]})",
                                        2);
  const Metrics& same = find_row(result, "same", "bytes");
  EXPECT_EQ(same.var, 0.0);
  EXPECT_GT(std::abs(same.bias), 0.0);
  // The fixed error is a draw from the per-process distribution: within kSigmas sd of 0 (false alarm 5.7e-7).
  EXPECT_LT(std::abs(same.bias), testing::kSigmas * std::sqrt(*same.theory.var));
  EXPECT_GT(expect_rows_match_theory(result, "shared"), 5);
  EXPECT_GT(expect_rows_match_theory(result, "per-thread"), 5);
  EXPECT_THROW(testing::create_scheme("heapprofd", {{"seeding", "fixed"}}), InputError);
}

}  // namespace
}  // namespace allocsim
