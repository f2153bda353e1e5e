#pragma once
// JUnit XML for CI systems: one test suite per scenario, one test case per
// expectation outcome.
#include <string>
#include <utility>
#include <vector>

#include "allocsim/check/expectation_check.h"

namespace allocsim {

struct ScenarioOutcomes {
  std::string scenario;
  double wall_seconds = 0;
  std::vector<ExpectationOutcome> outcomes;
};

std::string junit_xml(const std::vector<ScenarioOutcomes>& suites);

}  // namespace allocsim
