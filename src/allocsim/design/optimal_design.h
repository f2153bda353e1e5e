#pragma once
// The jemalloc document's open question (jemalloc doc_internal/PROFILING_INTERNALS.md,
// last section): choose a sampling probability p_Z per size class to minimise the
// estimate's variance
//   V(p) = sum_Z c_Z (1 - p_Z) / p_Z
// subject to the budget sum_Z a_Z p_Z <= P (expected samples) and 0 < p_Z <= 1.
// c_Z is what class Z adds to the variance of a Horvitz-Thompson estimate when
// sampled with probability p_Z, divided by (1 - p_Z)/p_Z: Z^2 times the number of
// its allocations that count (all of them for bytes allocated, the live ones for
// live bytes); a_Z is the number of its allocations (each costs p_Z samples).
//
// KKT: c_Z / p_Z^2 = lambda a_Z where 0 < p_Z < 1, so
//   p_Z = min(1, sqrt(c_Z / (lambda a_Z))),
// with lambda making the budget bind. The clipped classes (p_Z = 1) are those with
// the largest c_Z / a_Z, so sorting by that ratio and trying each prefix as the
// clipped set gives lambda exactly:
//   sqrt(lambda) = sum_{unclipped} sqrt(c_Z a_Z) / (P - sum_{clipped} a_Z).
// Classes with c_Z = 0 get p_Z = 0 (never sampled: they do not enter the
// objective); with P >= sum of a_Z over the others every class is sampled always.
#include <Eigen/Dense>

namespace allocsim {

struct OptimalDesign {
  Eigen::VectorXd probability;  // p_Z
  double multiplier = 0;        // lambda (0 when the budget does not bind)
  double variance = 0;          // V(p)
  double expected_samples = 0;  // sum_Z a_Z p_Z
};

// Throws std::invalid_argument on mismatched lengths, negative or non-finite
// entries, or a budget that is not positive.
OptimalDesign solve_optimal_design(const Eigen::VectorXd& cost, const Eigen::VectorXd& allocations, double budget);

// V(p) for any design; infinite when a class with c_Z > 0 has p_Z = 0.
double design_variance(const Eigen::VectorXd& cost, const Eigen::VectorXd& probability);

}  // namespace allocsim
