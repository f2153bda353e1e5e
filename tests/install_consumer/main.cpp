// Runs a scenario through the installed library and prints what it found; exits 1
// if the run does not hold what the scenario asks for.
#include <cstdio>

#include "allocsim/engine/experiment.h"
#include "allocsim/estimate/bytes_interval.h"
#include "allocsim/report/results_writer.h"

int main() {
  const allocsim::Scenario scenario = allocsim::parse_scenario(R"({
    "name": "consumer", "seed": 3, "replications": 50,
    "trace": {"allocations": 1000, "sizes": {"distribution": "constant", "size": 64}},
    "schemes": [{"scheme": "poisson", "rate": 4096}]
  })",
                                                               "consumer");
  allocsim::RunOptions options;
  options.threads = 2;
  const allocsim::ScenarioResult result = allocsim::run_scenario(scenario, options);
  const std::string metrics = allocsim::metrics_csv(scenario, result);
  const auto interval = allocsim::interval::bytes_interval({.samples = 10, .tail_bytes = 1000, .p = 1e-3});
  std::printf("%zu metric rows, truth %.0f bytes; interval [%.0f, %.0f]\n", result.rows.size(),
              result.rows.empty() ? 0.0 : result.rows.front().metrics.truth, interval.lower, interval.upper);
  // 1000 allocations of 64 bytes; a 95% interval holds its own estimate.
  const bool ok = !result.rows.empty() && result.rows.front().metrics.truth == 64000.0 &&
                  result.rows.front().metrics.replications == 50 && metrics.rfind("scheme,", 0) == 0 &&
                  interval.lower <= interval.estimate && interval.estimate <= interval.upper;
  return ok ? 0 : 1;
}
