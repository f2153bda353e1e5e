#include "allocsim/advice/optimum_gap.h"

#include <cmath>
#include <limits>

#include "allocsim/design/optimal_design.h"

namespace allocsim {

OptimumReference::OptimumReference(const Trace& trace, std::span<const std::uint64_t> measured,
                                   DesignObjective objective, const StackObjective& stacks)
    : weights_(objective_weights(trace, measured, objective, stacks)), demand_(size_class_demand(measured, weights_)) {}

OptimumGap OptimumReference::gap(const SchemeAccuracy& accuracy) const {
  OptimumGap gap;
  for (std::size_t i = 0; i < weights_.size(); ++i)
    gap.scheme_variance += weights_[i] * accuracy.allocation_variance[i];
  if (!(accuracy.expected_samples > 0)) {
    gap.optimal_variance = gap.ratio = std::numeric_limits<double>::infinity();
    return gap;
  }
  const OptimalDesign design = solve_optimal_design(demand_.cost, demand_.allocations, accuracy.expected_samples);
  gap.optimal_variance = design.variance;
  gap.ratio = design.variance > 0 ? gap.scheme_variance / design.variance
                                  : (gap.scheme_variance > 0 ? std::numeric_limits<double>::infinity() : 1.0);
  double misplaced = 0;
  for (std::size_t i = 0; i < accuracy.probability.size(); ++i) {
    misplaced += std::fabs(accuracy.probability[i] - design.probability[demand_.class_of[i]]);
  }
  gap.misplaced_samples = misplaced / (2 * accuracy.expected_samples);
  return gap;
}

}  // namespace allocsim
