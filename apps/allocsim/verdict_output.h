#pragma once
// Printing the verdict (report/verdict.h) of completed scenarios: as text on stdout,
// or with --json as one JSON document (an array of verdicts, one per scenario).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "scenario_runner.h"

namespace allocsim::cli {

struct VerdictOptions {
  bool json = false;
  std::size_t top = 5;  // largest stacks shown
};

void add_verdict_options(CLI::App& command, VerdictOptions& options);

// Prints the text verdict now, or keeps the JSON one in `document` for print_verdict_json.
void report_verdict(const Scenario& scenario, const CompletedScenario& done, const VerdictOptions& options,
                    nlohmann::ordered_json& document);
void print_verdict_json(const nlohmann::ordered_json& document);

}  // namespace allocsim::cli
