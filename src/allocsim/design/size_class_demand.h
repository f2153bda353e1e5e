#pragma once
// The inputs of the optimal design (optimal_design.h) for one trace: the size
// classes (distinct measured sizes Z), their allocation counts a_Z and their
// variance coefficients c_Z under an objective.
//
// Every objective is a weighted sum of the per-allocation variances of a
// Horvitz-Thompson bytes estimate, sum_i w_i Z_i^2 (1 - p_i) / p_i, where
//   allocated: w_i = 1                 (bytes allocated over the run, the total)
//   live:      w_i = 1 if live at end  (live bytes at the dump, PROFILING_INTERNALS.md's l_Z)
//   stack:     w_i = t / B^2 + 1 / B_g^2, B the bytes of all allocations and B_g
//              those of allocation i's stack, the second term only for stacks
//              holding >= a share f of B: the squared relative errors of each
//              such stack plus t times that of the total (t > 0 keeps every class
//              in the objective, so none goes unsampled).
// With p depending on the class only, c_Z = Z^2 sum_{i in Z} w_i.
#include <Eigen/Dense>

#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/design/design_objective.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

// w_i for each allocation; `measured` holds Z_i.
std::vector<double> objective_weights(const Trace& trace, std::span<const std::uint64_t> measured,
                                      DesignObjective objective, const StackObjective& stacks = {});

struct SizeClassDemand {
  std::vector<std::uint64_t> sizes;     // Z, ascending
  Eigen::VectorXd cost;                 // c_Z
  Eigen::VectorXd allocations;          // a_Z
  std::vector<std::uint32_t> class_of;  // per allocation: its index in `sizes`
};

SizeClassDemand size_class_demand(std::span<const std::uint64_t> measured, std::span<const double> weights);

}  // namespace allocsim
