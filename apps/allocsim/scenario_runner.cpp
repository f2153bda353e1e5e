#include "scenario_runner.h"

#include <unistd.h>

#include <cstdio>
#include <set>
#include <utility>

#include "allocsim/engine/experiment.h"
#include "allocsim/report/figures.h"
#include "allocsim/report/html_report.h"
#include "allocsim/report/results_writer.h"
#include "allocsim/scenario/replication_limits.h"
#include "allocsim/util/error.h"
#include "allocsim/util/output_path.h"
#include "allocsim/util/parallel.h"
#include "allocsim/util/printable.h"
#include "allocsim/util/staged_directory.h"
#include "commands.h"
#include "flag_checks.h"

namespace allocsim::cli {
namespace {

// Reads every distinct trace file of the scenario whole: a corrupt body is found
// here, not after other scenarios' results were written.
// The byte totals of each synthetic trace of `scenario`, drawn up front: with several
// scenarios, one past the limit is refused before the others are written.
void check_synthetic_traces(const Scenario& scenario) {
  std::set<std::string> checked;
  for (const SweepPoint& point : scenario.points) {
    const auto* spec = std::get_if<SyntheticSpec>(&point.trace.spec);
    if (spec == nullptr || !checked.insert(point.trace_key).second) continue;
    check_synthetic_byte_totals(*spec, trace_seed(scenario.seed), scenario.source + ": $.trace");
  }
}

void read_trace_files(const Scenario& scenario, std::set<std::string>& read) {
  for (const SweepPoint& point : scenario.points) {
    const auto* file = std::get_if<FileTraceSpec>(&point.trace.spec);
    if (file == nullptr || !read.insert(file->path).second) continue;
    try {
      load_file_trace(*file);
    } catch (const InputError& e) {
      throw InputError(scenario.source + ": trace: " + e.what());
    }
  }
}

// summary.json records which file the results came from. JSON text is UTF-8, so a
// name that is not would be written with U+FFFD in it: a record of a file that does
// not exist. Refused instead, before anything runs.
void check_source_name(const Scenario& scenario) {
  if (!is_utf8(scenario.source)) {
    throw InputError(printable_unquoted(scenario.source) +
                     ": the file name is not UTF-8, and summary.json must name it");
  }
}

}  // namespace

void add_scenario_options(CLI::App& command, ScenarioOptions& options) {
  command.add_option("scenarios", options.files, "scenario JSON files")->required();
  command.add_option("--out", options.out, "directory the results go under")->capture_default_str();
  command.add_option("-j,--threads", options.threads, "worker threads (default: all cores)")->check(thread_count());
  command.add_option("--seed", options.seed, "override the scenarios' seed")->check(seed_number());
  command.add_option("--replications", options.replications, "override the scenarios' replications")
      ->check(whole_number(kMinReplications, kMaxReplications));
  command.add_flag("-q,--quiet", options.quiet, "no progress line");
  command.add_flag("--no-charts,--no-chart", options.no_charts, "do not render the scenarios' charts and tables");
  command.add_option("--replay", options.replay, "override the scenarios' replay mode")
      ->check(CLI::IsMember({"skip_ahead", "streaming"}));
}

std::vector<Scenario> load_scenarios(const ScenarioOptions& options) {
  std::vector<Scenario> scenarios;
  for (const auto& file : options.files) {
    Scenario scenario = load_scenario(file);
    if (options.seed) scenario.seed = *options.seed;
    if (options.replications) scenario.replications = *options.replications;
    if (options.replay) {
      scenario.replay = *options.replay == "streaming" ? ReplayMode::streaming : ReplayMode::skip_ahead;
    }
    scenarios.push_back(std::move(scenario));
  }
  validate_scenarios(scenarios, options);
  return scenarios;
}

InputPaths scenario_inputs(const std::vector<Scenario>& scenarios, const ScenarioOptions& options) {
  InputPaths inputs;
  for (const Scenario& scenario : scenarios) inputs.add_all(scenario_inputs(scenario));
  for (const std::string& path : options.other_inputs) inputs.add(path);
  return inputs;
}

void validate_scenarios(const std::vector<Scenario>& scenarios, const ScenarioOptions& options) {
  const InputPaths inputs = scenario_inputs(scenarios, options);
  if (options.shard) {  // --out names the part file
    if (scenarios.size() != 1) {
      throw InputError("--shard: give exactly one scenario, got " + std::to_string(scenarios.size()));
    }
    check_output_file(options.out, inputs, "--out");
  }
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    const Scenario& scenario = scenarios[i];
    for (std::size_t j = 0; j < i; ++j) {
      if (scenarios[j].outputs.directory == scenario.outputs.directory) {
        throw InputError(printable_unquoted(scenario.source) + ": writes to the same results directory \"" +
                         scenario.outputs.directory + "\" as " + printable_unquoted(scenarios[j].source));
      }
    }
    check_source_name(scenario);
    if (!options.shard) check_results_directory(results_directory(options.out, scenario), inputs, "--out");
  }

  std::set<std::string> traces_read;
  for (const Scenario& scenario : scenarios) read_trace_files(scenario, traces_read);
  if (scenarios.size() > 1) {
    for (const Scenario& scenario : scenarios) check_synthetic_traces(scenario);
  }
}

RunOptions run_options(const ScenarioOptions& options) {
  RunOptions run;
  run.threads = options.threads == 0 ? default_thread_count() : options.threads;
  run.progress = !options.quiet && ::isatty(STDERR_FILENO) != 0;
  return run;
}

CompletedScenario write_results(const Scenario& scenario, ScenarioResult result, const ScenarioOptions& options) {
  CompletedScenario done;
  done.result = std::move(result);
  done.outcomes = check_expectations(scenario, done.result);
  done.directory = results_directory(options.out, scenario);
  StagedDirectory staged(done.directory, scenario_inputs({scenario}, options), "scenario " + scenario.name, "--out");
  write_result_files(staged.path(), scenario, done.result, done.outcomes);
  if (!options.no_charts) {
    // Named where they will be once the staged directory is in place.
    const unsigned threads = run_options(options).threads;
    for (const std::string& file : render_figures({scenario.charts, scenario.tables}, staged.path(), threads)) {
      done.figures.push_back(done.directory + file.substr(staged.path().size()));
    }
  }
  // After the charts, which it embeds.
  write_report_html(staged.path(), scenario, done.result, done.outcomes);
  staged.commit();
  return done;
}

CompletedScenario run_and_write(const Scenario& scenario, const ScenarioOptions& options) {
  return write_results(scenario, run_scenario(scenario, run_options(options)), options);
}

void print_completion(const Scenario& scenario, const CompletedScenario& done) {
  std::size_t failed = 0;
  for (const auto& o : done.outcomes) failed += o.passed ? 0 : 1;
  std::fprintf(stderr, "%s: %zu rows in %.2f s -> %s/metrics.csv", scenario.name.c_str(), done.result.rows.size(),
               done.result.wall_seconds, done.directory.c_str());
  if (!done.outcomes.empty()) {
    std::fprintf(stderr, " (expectations: %zu of %zu hold; `allocsim check` enforces them)",
                 done.outcomes.size() - failed, done.outcomes.size());
  }
  std::fprintf(stderr, "\n");
}

}  // namespace allocsim::cli
