// `allocsim merge PARTS... --out DIR`: the partial-state files of `run --shard
// K/N` joined into the results a single `allocsim run` of the scenario writes.
#include <memory>

#include "allocsim/engine/experiment.h"
#include "allocsim/util/error.h"
#include "allocsim/util/file_text.h"
#include "allocsim/util/interrupt_cleanup.h"
#include "commands.h"
#include "flag_checks.h"
#include "part_files.h"
#include "scenario_runner.h"

namespace allocsim::cli {

void add_merge_command(CLI::App& app, int& exit_code) {
  auto parts = std::make_shared<std::vector<std::string>>();
  auto options = std::make_shared<ScenarioOptions>();
  CLI::App* command = app.add_subcommand(
      "merge", "join the part files of `run --shard K/N` into results/<scenario>/, as one `run` writes them");
  command->add_option("parts", *parts, "part files, one per shard, in any order")->required();
  command->add_option("--out", options->out, "directory the results go under")->capture_default_str();
  command->add_option("-j,--threads", options->threads, "worker threads for the set-up (default: all cores)")
      ->check(thread_count());
  command->add_flag("-q,--quiet", options->quiet, "no progress line");
  command->add_flag("--no-charts,--no-chart", options->no_charts, "do not render the scenario's charts and tables");
  command->callback([parts, options, &exit_code] {
    handle_interrupts();
    options->other_inputs = *parts;
    std::vector<PartialState> states;
    for (const std::string& path : *parts) states.push_back(decode_partial_state(read_file_text(path, "part file"), path));
    CombinedParts combined = combine_parts(std::move(states), *parts);
    validate_scenarios({combined.scenario}, *options);
    const CompletedScenario done = write_results(
        combined.scenario, merge_units(combined.scenario, combined.units, run_options(*options), combined.origins),
        *options);
    if (!options->quiet) print_completion(combined.scenario, done);
    exit_code = 0;
  });
}

}  // namespace allocsim::cli
