#pragma once
// How far a scheme is from the optimal size-dependent design (optimal_design.h)
// at the same expected number of samples, on one trace and objective: the ratio
// of their variances, and the share of the sample budget the scheme spends in the
// wrong size classes, (1/2) sum_Z a_Z |p_Z - p*_Z| / P (0: the optimal p_Z curve;
// 1: no sample where the optimum puts one).
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/advice/scheme_accuracy.h"
#include "allocsim/design/size_class_demand.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

struct OptimumGap {
  double scheme_variance = 0;   // sum_i w_i Var_i of the scheme
  double optimal_variance = 0;  // the optimum's, same classes (the scheme's measured sizes) and budget
  double ratio = 0;             // scheme / optimal (1 at best; infinite if the optimum is exact)
  double misplaced_samples = 0;
};

// The optimum's inputs for one trace, measured sizes and objective, built once
// and compared with any scheme that measures the same sizes.
class OptimumReference {
 public:
  OptimumReference(const Trace& trace, std::span<const std::uint64_t> measured, DesignObjective objective,
                   const StackObjective& stacks = {});
  OptimumGap gap(const SchemeAccuracy& accuracy) const;

 private:
  std::vector<double> weights_;  // w_i
  SizeClassDemand demand_;
};

}  // namespace allocsim
