#include "allocsim/stats/metrics.h"

#include <cmath>
#include <limits>

namespace allocsim {

Metrics compute_metrics(const ErrorAccumulator& acc, double truth, const TheoryValues& theory) {
  Metrics m;
  const double r = static_cast<double>(acc.replications());
  m.replications = acc.replications();
  m.truth = truth;
  m.bias = acc.error.mean();
  m.mean = truth + m.bias;
  m.rel_bias = truth != 0 ? m.bias / truth : std::numeric_limits<double>::quiet_NaN();
  m.var = acc.error.variance();
  m.sd = std::sqrt(m.var);
  m.se_bias = acc.error.standard_error();
  m.se_var = acc.error.variance_standard_error();
  // Mean squared error from the population second moment: bias^2 + M2 / R.
  m.rmse = r > 0 ? std::sqrt(m.bias * m.bias + acc.error.raw_m2() / r) : 0.0;
  m.mape = acc.abs_relative_error.mean();
  m.se_mape = acc.abs_relative_error.standard_error();
  m.replications_with_sample = acc.replications_with_sample();
  if (m.replications_with_sample > 0) {
    m.cmape = acc.abs_relative_error_given_any.mean();
    m.se_cmape = acc.abs_relative_error_given_any.standard_error();
  } else {
    m.cmape = std::numeric_limits<double>::quiet_NaN();
    m.se_cmape = std::numeric_limits<double>::quiet_NaN();
  }
  m.p_any_sample = r > 0 ? static_cast<double>(m.replications_with_sample) / r : 0.0;
  // Binomial standard error; with a theory value use it, since the observed
  // proportion can be exactly 0 or 1 and would claim zero uncertainty.
  const double p_for_se = theory.p_any_sample.value_or(m.p_any_sample);
  m.se_p_any_sample = r > 0 ? std::sqrt(p_for_se * (1.0 - p_for_se) / r) : 0.0;
  m.theory = theory;
  return m;
}

}  // namespace allocsim
