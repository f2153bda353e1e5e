// `allocsim evaluate TRACE --scheme S [--rate T]...`: how accurate is scheme S at
// rate T on this trace? Builds a scenario from the command line (--save-scenario
// writes it for editing and `allocsim run`), runs it, writes the usual results and
// charts, and prints the verdict (report/verdict.h).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "allocsim/report/evaluate_scenario.h"
#include "allocsim/report/results_writer.h"
#include "allocsim/scenario/replication_limits.h"
#include "allocsim/trace/trace_source.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"
#include "allocsim/util/interrupt_cleanup.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/output_path.h"
#include "commands.h"
#include "flag_checks.h"
#include "scenario_runner.h"
#include "trace_argument.h"
#include "verdict_output.h"

namespace allocsim::cli {
namespace {

namespace fs = std::filesystem;

struct EvaluateOptions {
  ScenarioOptions run;
  VerdictOptions verdict;
  std::string trace;
  std::string names_from;
  EvaluateRequest request;
  std::string save_scenario;
};

// Without --name: evaluate-<stem> under --out, or, when an earlier run (or anything
// else) holds that name, the first free evaluate-<stem>-2, -3, ...: an earlier result
// is kept, never replaced silently (--name NAME replaces a results directory allocsim
// wrote). Returns the name taken by something else, or empty.
std::string choose_default_name(EvaluateOptions& o) {
  const std::string base = evaluate_default_name(o.request.trace_name);
  const auto taken = [&](const std::string& name) {
    std::error_code error;
    return fs::exists(fs::symlink_status(fs::path(o.run.out) / name, error));
  };
  o.request.name = base;
  if (!taken(base)) return "";
  for (int n = 2; taken(o.request.name); ++n) o.request.name = base + "-" + std::to_string(n);
  return base;
}

// A trace with no allocation, or none of a byte, leaves nothing to estimate (its
// charts would select no rows): refused before anything runs, naming the file.
void require_allocated_bytes(const Scenario& scenario, const std::string& trace_name) {
  const Trace trace = load_trace(scenario.points.front().trace, scenario.seed);
  if (trace.size() == 0) throw InputError(trace_name + ": the trace has no allocations");
  if (std::all_of(trace.requested.begin(), trace.requested.end(), [](std::uint64_t s) { return s == 0; })) {
    throw InputError(trace_name + ": the trace allocates no bytes (every allocation has size 0)");
  }
}

}  // namespace

void add_evaluate_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<EvaluateOptions>();
  CLI::App* command =
      app.add_subcommand("evaluate", "how accurate is a scheme at a rate on this trace: a verdict, results and charts");
  command->add_option("TRACE", o->trace, "trace file (any format allocsim reads) or a .json trace object")->required();
  command->add_option("--names-from", o->names_from,
                      "raw heaptrack file: frame names from the interpreted file of the same run (the command "
                      "heaptrack -r prints makes it)");
  command
      ->add_option("--scheme", o->request.schemes, "scheme, with parameters as NAME:key=value,key=value (repeatable)")
      ->required();
  command->add_option("--rate", o->request.rates,
                      "byte rate for every scheme: 4096, 32KiB, 2MiB (repeatable; default: each scheme's)");
  command->add_option("--group", o->request.groups, "group kinds beside the total")
      ->capture_default_str()
      ->check(CLI::IsMember({"total", "stack", "type", "size_bucket"}));
  command->add_option("--window", o->request.windows, "heap windows")
      ->capture_default_str()
      ->check(CLI::IsMember({"allocated", "live_at_end", "live_at_peak"}));
  command->add_option("--replications", o->request.replications, "simulated profiles per scheme and rate")
      ->capture_default_str()
      ->check(whole_number(kMinReplications, kMaxReplications));
  command->add_option("--seed", o->request.seed, "random seed")->capture_default_str()->check(seed_number());
  command->add_option("--name", o->request.name,
                      "scenario name and results folder, replaced if allocsim wrote it (default: evaluate-<trace>, or "
                      "evaluate-<trace>-2, -3, ... beside an earlier one, which is kept)");
  command->add_option("--save-scenario", o->save_scenario, "also write the scenario built here to this file");
  command->add_option("--out", o->run.out, "directory the results go under")->capture_default_str();
  command->add_option("-j,--threads", o->run.threads, "worker threads (default: all cores)")->check(thread_count());
  command->add_flag("--no-charts,--no-chart", o->run.no_charts, "do not draw charts");
  command->add_flag("-q,--quiet", o->run.quiet, "no progress line (the last line still says where the results are)");
  add_verdict_options(*command, o->verdict);
  command->callback([o, &exit_code] {
    handle_interrupts();
    o->request.trace = trace_argument(o->trace, o->names_from);
    o->request.trace_name = fs::path(o->trace).filename().string();
    const std::string kept = o->request.name.empty() ? choose_default_name(*o) : "";
    const nlohmann::ordered_json document = evaluate_scenario(o->request);
    const std::string text = json_text(document, 2) + "\n";
    const Scenario scenario = parse_scenario(text, "allocsim evaluate");
    validate_scenarios({scenario}, o->run);
    require_allocated_bytes(scenario, o->trace);
    if (!o->save_scenario.empty()) {
      check_output_file(o->save_scenario, scenario_inputs({scenario}, o->run), "--save-scenario");
      check_outside_results_directory(o->save_scenario, results_directory(o->run.out, scenario), "--save-scenario");
    }
    const CompletedScenario done = run_and_write(scenario, o->run);
    if (!o->save_scenario.empty()) write_file_atomically(o->save_scenario, text);
    nlohmann::ordered_json verdicts;
    report_verdict(scenario, done, o->verdict, verdicts);
    if (o->verdict.json) std::printf("%s\n", json_text(verdicts.front(), 2).c_str());
    if (!o->verdict.json) {  // --quiet too: it silences the progress, not where the results are
      // What is there: no charts/ when none was drawn (--no-charts, or no group a chart shows).
      const bool charts = fs::is_directory(fs::path(done.directory) / "charts");
      std::fprintf(stderr, "results in %s/ (report.html, metrics.csv%s)%s\n", done.directory.c_str(),
                   charts ? ", charts/" : "; no charts",
                   o->save_scenario.empty() ? "" : ("; scenario in " + o->save_scenario).c_str());
      if (!kept.empty()) {
        std::fprintf(stderr, "  (%s/ kept: an earlier run's; --name %s replaces it)\n",
                     (fs::path(o->run.out) / kept).string().c_str(), kept.c_str());
      }
    }
    exit_code = 0;
  });
}

}  // namespace allocsim::cli
