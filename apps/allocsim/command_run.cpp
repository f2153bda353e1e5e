// `allocsim run SCENARIO...`: runs scenarios and writes their results; with
// --shard K/N, one shard's work units into a part file; with --mpi (under
// mpirun), the work units spread over the ranks and the results written by rank 0.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "allocsim/util/error.h"
#include "allocsim/util/interrupt_cleanup.h"
#include "commands.h"
#include "mpi_run.h"
#include "part_files.h"
#include "scenario_runner.h"
#include "verdict_output.h"

namespace allocsim::cli {

void add_run_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ScenarioOptions>();
  auto verdict = std::make_shared<VerdictOptions>();
  CLI::App* command = app.add_subcommand("run", "run scenarios, write results/<scenario>/metrics.csv, print a verdict");
  add_scenario_options(*command, *options);
  add_verdict_options(*command, *verdict);
  auto* shard = command->add_option("--shard", options->shard,
                                    "compute only shard K of N (0 <= K < N) into the part file --out; "
                                    "`allocsim merge` joins the parts");
  command->add_flag("--mpi", options->mpi, "spread the work units over the ranks of mpirun; rank 0 writes")
      ->excludes(shard);
  command->callback([options, verdict, &exit_code] {
    handle_interrupts();
    if (options->shard) (void)parse_shard(*options->shard, "--shard");
    const auto scenarios = load_scenarios(*options);
    if (options->shard) {
      run_shard(scenarios.front(), *options);
      exit_code = 0;
      return;
    }
    nlohmann::ordered_json verdicts;
    std::vector<std::string> written;  // --quiet: the directories, for the one last line
    auto report = [&](const Scenario& scenario, const CompletedScenario& done) {
      if (!options->quiet || verdict->json) report_verdict(scenario, done, *verdict, verdicts);
      if (!options->quiet) print_completion(scenario, done);
      written.push_back(done.directory);
    };
    bool wrote = true;
    if (options->mpi) {
      wrote = run_with_mpi(scenarios, *options, report);
      if (wrote) print_verdict_json(verdicts);
    } else {
      for (const Scenario& scenario : scenarios) report(scenario, run_and_write(scenario, *options));
      print_verdict_json(verdicts);
    }
    // --quiet silences the verdicts and the progress, not where the results went.
    if (options->quiet && wrote && !written.empty()) {
      if (written.size() == 1) {
        std::fprintf(stderr, "results in %s/ (report.html, metrics.csv)\n", written.front().c_str());
      } else {
        std::fprintf(stderr, "results of %zu scenarios in %s/ (a directory each: report.html, metrics.csv)\n",
                     written.size(), options->out.c_str());
      }
    }
    exit_code = 0;
  });
}

}  // namespace allocsim::cli
