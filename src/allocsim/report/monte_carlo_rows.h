#pragma once
// The Monte Carlo estimates of one verdict entry (report/verdict.h), each with its
// standard error, for the report's "estimate [lower, upper]" tables. The quantities
// are the columns of the result tables (stats/result_tables.h) that have a standard
// error column beside them, found by name, so a column added there reaches the
// report without being listed here again.
#include <string>
#include <vector>

#include "allocsim/outputs/value_format.h"
#include "allocsim/report/verdict.h"

namespace allocsim {

struct MonteCarloEstimate {
  std::string column;  // the result column: "mape", "coverage", ...
  std::string label;   // in words
  Unit unit = Unit::none;
  double estimate = 0;
  double se = 0;  // Monte Carlo standard error
};

// z of a two-sided 95% normal interval: estimate ± 1.96 SE.
inline constexpr double kMonteCarloLevel = 0.95;
inline constexpr double kMonteCarloZ = 1.959963984540054;

// The whole heap's estimates: its metrics.csv row, then its first intervals.csv
// row and its profiles.csv row where the entry has them.
std::vector<MonteCarloEstimate> monte_carlo_estimates(const SchemeVerdict& entry);

}  // namespace allocsim
