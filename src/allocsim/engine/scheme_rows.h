#pragma once
// The result rows of one scheme at one sweep point, made from its merged
// accumulators and its truth: one function per row kind, in the order the
// result files list them, and one that appends them all.
#include <cstddef>
#include <vector>

#include "allocsim/engine/experiment.h"
#include "allocsim/engine/scheme_evaluator.h"
#include "allocsim/stats/groups.h"
#include "allocsim/stats/truth.h"
#include "allocsim/stats/window.h"

namespace allocsim {

// What one scheme's rows at one point are made from.
struct SchemeOutcome {
  const Scenario& scenario;
  std::size_t point = 0;
  std::size_t scheme = 0;  // index into the point's schemes
  const GroupIndex& groups;
  const std::vector<Window>& windows;
  const Truth& truth;
  const std::vector<AllocationTheory>& theory_sums;  // laid out like the accumulators
  const BlockResult& merged;                         // every block of the scheme, merged in order
};

// A row per reported estimator, window and group holding some of its quantity.
void append_metric_rows(const SchemeOutcome& outcome, std::vector<MetricRow>& rows);
// The same for each interval method of the scheme.
void append_interval_rows(const SchemeOutcome& outcome, std::vector<IntervalRow>& rows);
// A row per group kind other than the total, window and reported estimator.
void append_profile_rows(const SchemeOutcome& outcome, std::vector<ProfileRow>& rows);
// Each estimator's whole-trace estimates, when the scenario asks for them.
void append_estimates(const SchemeOutcome& outcome, std::vector<ReplicationEstimates>& series);

// All of the above, into `result`.
void append_scheme_rows(const SchemeOutcome& outcome, ScenarioResult& result);

}  // namespace allocsim
