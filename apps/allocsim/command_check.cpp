// `allocsim check SCENARIO...`: runs scenarios and enforces their expectations.
// Exit 1 if any expectation fails.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "allocsim/check/expectation_check.h"
#include "allocsim/report/junit.h"
#include "allocsim/report/results_writer.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"
#include "allocsim/util/interrupt_cleanup.h"
#include "allocsim/util/output_path.h"
#include "commands.h"
#include "scenario_runner.h"
#include "verdict_output.h"

namespace allocsim::cli {

void add_check_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ScenarioOptions>();
  auto junit = std::make_shared<std::string>();
  auto verdict = std::make_shared<VerdictOptions>();
  CLI::App* command = app.add_subcommand("check", "run scenarios and enforce their expectations");
  add_scenario_options(*command, *options);
  add_verdict_options(*command, *verdict);
  command->get_option("--quiet")->description(
      "print the failed expectations only, then one last line: passed, failed, where the results are");
  command->add_option("--junit", *junit, "also write the outcomes as JUnit XML to this file");
  command->callback([options, junit, verdict, &exit_code] {
    handle_interrupts();
    const auto scenarios = load_scenarios(*options);
    if (!junit->empty()) {
      check_output_file(*junit, scenario_inputs(scenarios, *options), "--junit");
      for (const Scenario& scenario : scenarios) {
        check_outside_results_directory(*junit, results_directory(options->out, scenario), "--junit");
      }
    }
    nlohmann::ordered_json verdicts;
    // With --json stdout carries the verdicts alone; the outcomes go to stderr.
    FILE* text = verdict->json ? stderr : stdout;
    std::vector<ScenarioOutcomes> suites;
    std::size_t total = 0, failed = 0;
    double seconds = 0;
    for (const Scenario& scenario : scenarios) {
      const CompletedScenario done = run_and_write(scenario, *options);
      if (!options->quiet || verdict->json) report_verdict(scenario, done, *verdict, verdicts);
      std::vector<ExpectationOutcome> shown;  // --quiet: the failures alone
      for (const auto& o : done.outcomes) {
        ++total;
        failed += o.passed ? 0 : 1;
        if (!options->quiet || !o.passed) shown.push_back(o);
      }
      seconds += done.result.wall_seconds;
      if (!options->quiet || !shown.empty()) {
        std::fprintf(text, "== %s (%zu replications, %.2f s)\n", scenario.name.c_str(),
                     static_cast<std::size_t>(scenario.replications), done.result.wall_seconds);
        if (done.outcomes.empty()) std::fprintf(text, "   (no expectations)\n");
        std::fputs(format_outcomes(shown).c_str(), text);
      }
      suites.push_back({scenario.name, done.result.wall_seconds, done.outcomes});
    }
    if (options->quiet) {
      // One last line: the count, and where the results went (the failures above it).
      std::fprintf(text, "%zu passed, %zu failed (%zu scenario%s, %.1f s; results in %s/)\n", total - failed, failed,
                   scenarios.size(), scenarios.size() == 1 ? "" : "s", seconds, options->out.c_str());
    } else {
      std::fprintf(text, "%zu passed, %zu failed\n", total - failed, failed);
    }
    print_verdict_json(verdicts);
    if (!junit->empty()) write_file_atomically(*junit, junit_xml(suites));
    exit_code = failed == 0 ? 0 : 1;
  });
}

}  // namespace allocsim::cli
