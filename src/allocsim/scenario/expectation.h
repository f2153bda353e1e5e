#pragma once
// Expectations: bounds on metric rows that `allocsim check` enforces.
//
//   {"where": {"scheme": "poisson", "estimator": "bytes", "group_kind": "total"},
//    "metric": "bias", "equals": 0, "sigmas": 5}
//       |bias - 0| <= 5 * se_bias for every selected row
//   {"where": {...}, "metric": "mape", "equals": "theory", "sigmas": 5}
//       |mape - theory_mape| <= 5 * se_mape
//   {"where": {...}, "metric": "rel_bias", "abs": true, "max": 0.01}
//       |rel_bias| <= 0.01
//   {"where": {"interval": "wald"}, "metric": "coverage", "equals": "theory", "sigmas": 5}
//       |coverage - level| <= 5 * sqrt(level (1 - level) / R)
//   {"metric": "p_any_sample", "equals": "theory", "sigmas": 5}
//       exactly: the replications with a sample, K of R, are not in a tail of
//       Binomial(R, theory_p_any_sample) smaller than the normal 5-sigma tail
// An expectation that selects no row fails: a check that cannot see its data
// must not pass.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "allocsim/json/json_reader.h"

namespace allocsim {

struct Expectation {
  std::string path;  // "$.expectations[3]"
  std::string name;
  std::vector<std::pair<std::string, nlohmann::json>> where;
  std::string metric;
  std::optional<double> equals;  // a number, or
  bool equals_theory = false;    // the theory_<metric> column
  double sigmas = 0;             // allowed distance in standard errors of the metric
  double tolerance = 0;          // plus an absolute allowance (numerical slack)
  std::optional<double> min, max;
  bool absolute = false;  // compare |metric|
};

// `columns` are the names a "where" may use (scheme, estimator, group_kind, group and
// the sweep variables).
Expectation parse_expectation(JsonObject& object, const std::vector<std::string>& columns);

// Metric names an expectation may test.
const std::vector<std::string>& expectation_metrics();
// Coverage metrics: columns of interval rows (selectable by "interval") that metric
// rows lack, read from the former. For "equals": "theory", coverage's theory is the
// nominal level and miss_low/miss_high's is (1 - level) / 2.
bool is_interval_metric(const std::string& metric);

}  // namespace allocsim
