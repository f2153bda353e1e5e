// RunOptions::cancelled stops a run (RunCancelled); a run that is never cancelled
// gives the same bytes as one without the hook.
#include <gtest/gtest.h>

#include <atomic>

#include "allocsim/engine/experiment.h"
#include "allocsim/report/results_writer.h"

namespace allocsim {
namespace {

constexpr const char* kScenario = R"({
  "name": "cancel", "seed": 9, "replications": 64,
  "trace": {"allocations": 500, "sizes": {"distribution": "log_uniform", "min": 8, "max": 4096}},
  "schemes": [{"scheme": "poisson", "rate": "$rate"}],
  "sweep": {"rate": [256, 1024, 4096]}
})";

TEST(RunCancel, CancelledBeforeTheFirstPointThrowsAndAsksOnce) {
  const Scenario scenario = parse_scenario(kScenario, "cancel");
  int asked = 0;
  RunOptions options;
  options.threads = 2;
  options.cancelled = [&] { return ++asked > 0; };
  EXPECT_THROW(run_scenario(scenario, options), RunCancelled);
  EXPECT_EQ(asked, 1);
}

TEST(RunCancel, CancelledAfterTheFirstPointThrows) {
  const Scenario scenario = parse_scenario(kScenario, "cancel");
  std::atomic<int> asked{0};
  RunOptions options;
  options.threads = 1;
  // The hook is asked before each point (and while replications run): the third
  // point is never reached once it answers true.
  options.cancelled = [&] { return ++asked >= 2; };
  EXPECT_THROW(run_scenario(scenario, options), RunCancelled);
}

TEST(RunCancel, AHookThatNeverCancelsChangesNothing) {
  const Scenario scenario = parse_scenario(kScenario, "cancel");
  RunOptions plain;
  plain.threads = 2;
  RunOptions hooked = plain;
  hooked.cancelled = [] { return false; };
  EXPECT_EQ(metrics_csv(scenario, run_scenario(scenario, plain)),
            metrics_csv(scenario, run_scenario(scenario, hooked)));
}

}  // namespace
}  // namespace allocsim
