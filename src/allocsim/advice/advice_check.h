#pragma once
// Monte Carlo confirmation of an advised point: replays the trace with the
// scheme at that point (its own streaming replay and weights, independent of the
// closed forms) and measures what the targets speak of: the total's relative
// RMSE, and the MAPE and P(seen) of each stack holding >= f of the bytes (only
// those stacks are tallied, so a trace with thousands of stacks stays fast). A
// target counts as met when the measurement is within `sigmas` standard errors
// of it, so a point on the boundary passes and a clear miss fails.
#include <cstdint>

#include "allocsim/advice/advisor.h"
#include "allocsim/trace/trace.h"

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
  unsigned threads = 1;  // worker threads; the result does not depend on it
};

MonteCarloCheck check_advice(const Trace& trace, const AdvicePoint& point, const AccuracyTargets& targets,
                             const MonteCarloOptions& options);

// The advised point once Monte Carlo agrees: while the check misses a target (the
// closed forms' normal approximation of a stack's MAPE can be optimistic for a
// stack of a few large allocations), the interval is lowered by 10% and checked
// again (to what the system accepts: Advisor::settable), at most 20 times; a system
// with a fixed interval is checked there only. `confirmed` says whether the last
// check passed.
struct ConfirmedAdvice {
  AdvicePoint point;
  MonteCarloCheck check;
  double closed_form_interval = 0;  // the interval the closed forms chose
  bool confirmed = false;
};

ConfirmedAdvice confirm_advice(Advisor& advisor, const AdvisedScheme& scheme, const AdvicePoint& advised,
                               const AccuracyTargets& targets, const MonteCarloOptions& options);

}  // namespace allocsim
