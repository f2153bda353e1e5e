#include "testing/statistical_assertions.h"

#include <cmath>

namespace allocsim::testing {

::testing::AssertionResult within_sigmas(double measured, double expected, double standard_error, double k) {
  const double distance = std::fabs(measured - expected);
  if (distance <= k * standard_error) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "measured " << measured << ", expected " << expected << ": "
                                       << distance / standard_error << " standard errors apart (se " << standard_error
                                       << "), more than " << k;
}

::testing::AssertionResult unbiased(const Metrics& m, double k) {
  if (!m.theory.var) return ::testing::AssertionFailure() << "the row has no theory variance";
  const double se = mean_standard_error(*m.theory.var, static_cast<double>(m.replications));
  return within_sigmas(m.bias, 0.0, se, k) << " (bias of an estimate with truth " << m.truth << ")";
}

::testing::AssertionResult binomial_count_within_sigmas(double successes, double trials, double p, double k) {
  const double se = std::sqrt(trials * p * (1 - p));
  return within_sigmas(successes, trials * p, se, k) << " (successes of " << trials << " trials at p " << p << ")";
}

::testing::AssertionResult matches_closed_form(double value, double closed_form, double relative_tolerance) {
  const double distance = std::fabs(value - closed_form);
  if (distance <= relative_tolerance * std::fabs(closed_form)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "value " << value << " differs from the closed form " << closed_form << " by "
                                       << distance / std::fabs(closed_form) << " of it, more than "
                                       << relative_tolerance;
}

}  // namespace allocsim::testing
