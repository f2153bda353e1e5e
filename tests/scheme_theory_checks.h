#pragma once
// Helpers for the scheme tests: the catalogue entry of a scheme, and a check of
// every metric row of one scheme against the theory columns it carries, the way
// `allocsim check` does: |bias - theory_bias| <= k se with se = max(sample se,
// sqrt(theory_var / R)), |var - theory_var| <= k se_var, and
// |p_any_sample - theory| <= k binomial se. At the default k = kSigmas each two-sided
// comparison fails by chance with probability kSigmasFalseAlarmRate (normal
// approximation); seeds are fixed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "allocsim/engine/experiment.h"
#include "allocsim/sampler/registry.h"
#include "testing/statistical_bounds.h"

namespace allocsim::testing {

// The `allocsim schemes --json` entry of `name`, or null.
inline nlohmann::json catalogue_entry(const std::string& name) {
  for (const auto& entry : describe_schemes_json()) {
    if (entry["name"] == name) return entry;
  }
  return nullptr;
}

// The default of parameter `parameter` in a catalogue entry, or null.
inline nlohmann::json parameter_default(const nlohmann::json& entry, const std::string& parameter) {
  for (const auto& p : entry["parameters"]) {
    if (p["name"] == parameter) return p["default"];
  }
  return nullptr;
}

// Returns how many rows had a theory_bias, so callers can assert they saw some.
inline int expect_rows_match_theory(const ScenarioResult& result, const std::string& scheme, double k = kSigmas) {
  int checked = 0;
  for (const MetricRow& row : result.rows) {
    if (row.scheme != scheme) continue;
    const Metrics& m = row.metrics;
    const std::string where = row.scheme + "/" + row.estimator + "/" + to_string(row.group_kind) + ":" + row.group +
                              " point " + std::to_string(row.point);
    if (m.theory.bias) {
      ++checked;
      const double R = static_cast<double>(m.replications);
      const double se = std::max(m.se_bias, std::sqrt(m.theory.var.value_or(0.0) / R));
      // Plus 1e-9 of the truth for rounding in groups with no sampling error at all.
      EXPECT_NEAR(m.bias, *m.theory.bias, k * se + 1e-9 * m.truth) << where;
    }
    if (m.theory.var && m.var == 0) {
      // No replication deviated: the error is too rare to show in R replications
      // (e.g. missing a 64 KiB allocation at T = 4096, probability e^-16). Only
      // accept that when the theory's error is below 1e-4 of the truth.
      EXPECT_LE(std::sqrt(*m.theory.var), 1e-4 * m.truth) << where;
    } else if (m.theory.var) {
      EXPECT_NEAR(m.var, *m.theory.var, k * m.se_var) << where;
    }
    if (m.theory.p_any_sample) {
      EXPECT_NEAR(m.p_any_sample, *m.theory.p_any_sample, k * m.se_p_any_sample) << where;
    }
  }
  return checked;
}

}  // namespace allocsim::testing
