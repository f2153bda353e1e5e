#pragma once
// Evaluates a scenario's expectations against its metric rows.
#include <string>
#include <vector>

#include "allocsim/engine/experiment.h"

namespace allocsim {

struct ExpectationOutcome {
  std::size_t expectation = 0;  // index into Scenario::expectations
  std::string name;             // the expectation's name, or its JSON path
  std::string row;              // which metric row, in words
  double value = 0;             // the metric (NaN when no row matched)
  std::string bound;            // the test, with numbers
  bool passed = false;
};

std::vector<ExpectationOutcome> check_expectations(const Scenario& scenario, const ScenarioResult& result);

// One line per outcome, aligned, for the terminal.
std::string format_outcomes(const std::vector<ExpectationOutcome>& outcomes);

}  // namespace allocsim
