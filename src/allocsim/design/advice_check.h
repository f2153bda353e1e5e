#pragma once
// Monte Carlo confirmation of an advised point: replays the trace with the
// scheme at that point (run_scenario, groups total and stack, bytes allocated
// over the run) and measures what the targets speak of: the total's relative
// RMSE, the worst MAPE and the least P(seen) over the stacks holding >= f of the
// bytes. A target counts as met when the measurement is within `sigmas`
// standard errors of it, so a point on the boundary passes and a clear miss fails.
#include <cstdint>

#include "allocsim/design/advisor.h"
#include "allocsim/trace/trace_source.h"

namespace allocsim {

struct MonteCarloCheck {
  std::uint64_t replications = 0;
  double total_relative_rmse = 0, se_total_relative_rmse = 0;
  std::uint32_t target_stacks = 0;
  double worst_stack_mape = 0, se_worst_stack_mape = 0;
  double least_stack_seen = 1, se_least_stack_seen = 0;
  bool meets = false;
};

struct MonteCarloOptions {
  std::uint64_t replications = 1000;
  std::uint64_t seed = 1;
  double sigmas = 3;
  unsigned threads = 1;
};

MonteCarloCheck check_advice(const TraceSource& source, const AdvicePoint& point, const AccuracyTargets& targets,
                             const MonteCarloOptions& options);

}  // namespace allocsim
