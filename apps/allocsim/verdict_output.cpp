#include "verdict_output.h"

#include <cstdio>

#include "allocsim/report/verdict.h"
#include "allocsim/util/json_text.h"
#include "flag_checks.h"

namespace allocsim::cli {

void add_verdict_options(CLI::App& command, VerdictOptions& options) {
  command.add_flag("--json", options.json, "print the verdict as one JSON document on stdout");
  command.add_option("--top", options.top, "largest stacks shown per scheme")
      ->capture_default_str()
      ->check(whole_number(1, 1000));
}

void report_verdict(const Scenario& scenario, const CompletedScenario& done, const VerdictOptions& options,
                    nlohmann::ordered_json& document) {
  const Verdict verdict = make_verdict(scenario, done.result, options.top);
  if (options.json) {
    if (!document.is_array()) document = nlohmann::ordered_json::array();
    nlohmann::ordered_json item = verdict_json(scenario, verdict);
    item["directory"] = done.directory;
    item["files"] = done.figures;
    document.push_back(std::move(item));
  } else {
    std::fputs(verdict_text(scenario, verdict).c_str(), stdout);
    std::fflush(stdout);
  }
}

void print_verdict_json(const nlohmann::ordered_json& document) {
  if (document.is_array()) std::printf("%s\n", json_text(document, 2).c_str());
}

}  // namespace allocsim::cli
