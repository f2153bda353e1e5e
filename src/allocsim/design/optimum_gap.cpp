#include "allocsim/design/optimum_gap.h"

#include <cmath>
#include <limits>

#include "allocsim/design/optimal_design.h"

namespace allocsim {

OptimumGap optimum_gap(const SchemeAccuracy& accuracy, const Trace& trace, DesignObjective objective) {
  OptimumGap gap;
  gap.scheme_variance = objective_variance(accuracy, trace, objective);
  const std::vector<double> weights = objective_weights(trace, accuracy.measured, objective);
  const SizeClassDemand demand = size_class_demand(accuracy.measured, weights);
  if (!(accuracy.expected_samples > 0)) {
    gap.optimal_variance = gap.ratio = std::numeric_limits<double>::infinity();
    return gap;
  }
  const OptimalDesign design = solve_optimal_design(demand.cost, demand.allocations, accuracy.expected_samples);
  gap.optimal_variance = design.variance;
  gap.ratio = design.variance > 0 ? gap.scheme_variance / design.variance
                                  : (gap.scheme_variance > 0 ? std::numeric_limits<double>::infinity() : 1.0);
  double misplaced = 0;
  for (std::size_t i = 0; i < accuracy.probability.size(); ++i) {
    misplaced += std::fabs(accuracy.probability[i] - design.probability[demand.class_of[i]]);
  }
  gap.misplaced_samples = misplaced / (2 * accuracy.expected_samples);
  return gap;
}

}  // namespace allocsim
