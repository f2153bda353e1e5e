#pragma once
// Normal-approximation (Wald) interval: estimate +- z * sqrt(variance estimate),
// z = Phi^-1((1 + level) / 2). Every per-observation-weight estimator gets one by
// also summing an unbiased estimate of its variance over the sampled allocations:
// for a Horvitz-Thompson sum of y_i / pi_i that is sum (1 - pi_i) / pi_i^2 * y_i^2,
// for T * n with n ~ Poisson(S/T) it is T^2 * n.
#include "allocsim/estimate/interval.h"

namespace allocsim {

// z for a two-sided interval at `level` in (0, 1).
double normal_two_sided_z(double level);

Interval wald_interval(double estimate, double variance_estimate, double level);

}  // namespace allocsim
