#pragma once
// The bound every statistical test uses, and the standard errors it scales.
//
// A Monte Carlo estimate is compared with its expected value within kSigmas
// standard errors. Under the normal approximation a two-sided comparison at 5
// sigma fails by chance with probability 2 (1 - Phi(5)) = 5.7e-7; the seeds are
// fixed, so a test either always passes or always fails, and a failure at this
// rate means the code (or the theory) changed, not bad luck.
#include <cmath>

namespace allocsim::testing {

inline constexpr double kSigmas = 5;
// Two-sided false-alarm rate of one comparison at kSigmas, 2 (1 - Phi(5)).
inline constexpr double kSigmasFalseAlarmRate = 5.7e-7;

// Standard error of the mean of n independent draws with variance `variance`.
inline double mean_standard_error(double variance, double n) { return std::sqrt(variance / n); }

// Standard error of a proportion with success probability p over n trials.
inline double proportion_standard_error(double p, double n) { return std::sqrt(p * (1 - p) / n); }

}  // namespace allocsim::testing
