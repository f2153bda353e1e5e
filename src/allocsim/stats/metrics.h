#pragma once
// Turns an ErrorAccumulator into the metric columns of metrics.csv, each with its
// Monte Carlo standard error, beside the closed-form theory where one exists.
#include <cstdint>

#include "allocsim/estimate/theory_values.h"
#include "allocsim/stats/error_accumulator.h"

namespace allocsim {

struct Metrics {
  std::uint64_t replications = 0;
  double truth = 0;
  double mean = 0;      // mean estimate
  double bias = 0;      // mean - truth
  double rel_bias = 0;  // bias / truth
  double sd = 0;        // standard deviation of the estimate
  double se_bias = 0;   // sd / sqrt(R)
  double var = 0;
  double se_var = 0;
  double rmse = 0;
  double mape = 0;  // mean |estimate - truth| / truth
  double se_mape = 0;
  double cmape = 0;  // the same over replications with >= 1 sample (NaN if none)
  double se_cmape = 0;
  std::uint64_t replications_with_sample = 0;
  double p_any_sample = 0;
  double se_p_any_sample = 0;
  TheoryValues theory;
};

Metrics compute_metrics(const ErrorAccumulator& acc, double truth, const TheoryValues& theory);

}  // namespace allocsim
