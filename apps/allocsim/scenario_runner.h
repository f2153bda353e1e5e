#pragma once
// What `run` and `check` share: the scenario options, loading every scenario (all
// are validated, trace files read whole and output paths checked, before any runs),
// running one, writing its results directory as a whole.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "allocsim/check/expectation_check.h"
#include "allocsim/engine/experiment.h"
#include "allocsim/scenario/scenario.h"
#include "allocsim/util/output_path.h"

namespace allocsim::cli {

struct ScenarioOptions {
  std::vector<std::string> files;
  std::string out = "results";
  unsigned threads = 0;  // 0 = all cores
  std::optional<std::uint64_t> seed;
  std::optional<std::uint64_t> replications;
  bool quiet = false;
  bool no_charts = false;             // skip the scenarios' charts and tables
  std::optional<std::string> replay;  // overrides the scenarios' "replay"
  // `run` only: compute shard K/N's work units into the part file --out.
  std::optional<std::string> shard;
  bool mpi = false;  // `run --mpi`: the units are spread over the MPI ranks
  // Inputs besides the scenarios and their trace files (merge's part files): no
  // results directory may hold them.
  std::vector<std::string> other_inputs;
};

void add_scenario_options(CLI::App& command, ScenarioOptions& options);

// Reads and validates every scenario, its trace files and where its results go;
// the first problem is an InputError, before anything is run or written.
std::vector<Scenario> load_scenarios(const ScenarioOptions& options);
// The checks of load_scenarios after parsing, for scenarios built in memory (evaluate).
void validate_scenarios(const std::vector<Scenario>& scenarios, const ScenarioOptions& options);

struct CompletedScenario {
  ScenarioResult result;
  std::vector<ExpectationOutcome> outcomes;
  std::string directory;
  std::vector<std::string> figures;  // chart and table files written
};

RunOptions run_options(const ScenarioOptions& options);

// What the scenarios read (report's scenario_inputs of each) and options.other_inputs.
InputPaths scenario_inputs(const std::vector<Scenario>& scenarios, const ScenarioOptions& options);

// Checks the expectations of a finished result, then writes its results, charts
// and tables into a staged directory that replaces <out>/<directory> whole
// (util/staged_directory.h).
CompletedScenario write_results(const Scenario& scenario, ScenarioResult result, const ScenarioOptions& options);

// run_scenario, then write_results.
CompletedScenario run_and_write(const Scenario& scenario, const ScenarioOptions& options);

// The line `run` and `merge` print on stderr after a scenario (unless --quiet).
void print_completion(const Scenario& scenario, const CompletedScenario& done);

}  // namespace allocsim::cli
