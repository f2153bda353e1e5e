// `allocsim run SCENARIO...`: runs scenarios and writes their results.
#include <cstdio>
#include <memory>

#include "allocsim/util/interrupt_cleanup.h"
#include "commands.h"
#include "scenario_runner.h"
#include "verdict_output.h"

namespace allocsim::cli {

void add_run_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ScenarioOptions>();
  auto verdict = std::make_shared<VerdictOptions>();
  CLI::App* command = app.add_subcommand("run", "run scenarios, write results/<scenario>/metrics.csv, print a verdict");
  add_scenario_options(*command, *options);
  add_verdict_options(*command, *verdict);
  command->callback([options, verdict, &exit_code] {
    handle_interrupts();
    const auto scenarios = load_scenarios(*options);
    nlohmann::ordered_json verdicts;
    for (const Scenario& scenario : scenarios) {
      const CompletedScenario done = run_and_write(scenario, *options);
      if (!options->quiet || verdict->json) report_verdict(scenario, done, *verdict, verdicts);
      std::size_t failed = 0;
      for (const auto& o : done.outcomes) failed += o.passed ? 0 : 1;
      if (!options->quiet) {
        std::fprintf(stderr, "%s: %zu rows in %.2f s -> %s/metrics.csv", scenario.name.c_str(),
                     done.result.rows.size(), done.result.wall_seconds, done.directory.c_str());
        if (!done.outcomes.empty()) {
          std::fprintf(stderr, " (expectations: %zu of %zu hold; `allocsim check` enforces them)",
                       done.outcomes.size() - failed, done.outcomes.size());
        }
        std::fprintf(stderr, "\n");
      }
    }
    print_verdict_json(verdicts);
    exit_code = 0;
  });
}

}  // namespace allocsim::cli
