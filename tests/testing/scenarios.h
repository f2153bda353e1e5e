#pragma once
// Schemes and scenarios as a scenario file would give them, and their result rows.
#include <memory>
#include <stdexcept>
#include <string>

#include "allocsim/engine/experiment.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/scenario/scenario.h"

namespace allocsim::testing {

// A scheme from the registry with the given parameters, as a scenario's "schemes"
// entry would create it (unknown keys rejected).
inline std::unique_ptr<Scheme> create_scheme(const std::string& name, const nlohmann::json& params) {
  return allocsim::create_scheme(name, params, "$.schemes[0]");
}

// The same with the parameters given as JSON text.
inline std::unique_ptr<Scheme> create_scheme_from_text(const std::string& name, const std::string& params) {
  return create_scheme(name, nlohmann::json::parse(params));
}

// Runs a scenario given as JSON text.
inline ScenarioResult run_scenario_text(const std::string& json, unsigned threads = 1) {
  const Scenario scenario = parse_scenario(json, "test-scenario");
  RunOptions options;
  options.threads = threads;
  return run_scenario(scenario, options);
}

// The metric row of (scheme, estimator, group kind, group) at sweep point `point`.
inline const Metrics& find_row(const ScenarioResult& result, const std::string& scheme, const std::string& estimator,
                               GroupKind kind = GroupKind::total, const std::string& group = "all",
                               std::size_t point = 0) {
  for (const auto& row : result.rows) {
    if (row.point == point && row.scheme == scheme && row.estimator == estimator && row.group_kind == kind &&
        row.group == group) {
      return row.metrics;
    }
  }
  throw std::logic_error("no metric row " + scheme + "/" + estimator + "/" + group);
}
// The row is a reference into the result: keep the result alive in a variable.
const Metrics& find_row(ScenarioResult&& result, const std::string& scheme, const std::string& estimator,
                        GroupKind kind = GroupKind::total, const std::string& group = "all",
                        std::size_t point = 0) = delete;

}  // namespace allocsim::testing
