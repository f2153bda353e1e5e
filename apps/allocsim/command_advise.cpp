// `allocsim advise TRACE`: the largest sampling interval per scheme that meets
// the accuracy targets a user states, from closed forms, confirmed by Monte Carlo,
// with the accuracy-cost frontier and each scheme's distance from the optimal
// size-class design (advice/advisor.h). The report is assembled by
// advice/advice_report.h and its --out directory written by report/advice_files.h.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "allocsim/advice/advice_check.h"
#include "allocsim/advice/advice_report.h"
#include "allocsim/advice/advisor.h"
#include "allocsim/advice/probability_curves.h"
#include "allocsim/json/json_reader.h"
#include "allocsim/report/advice_files.h"
#include "allocsim/scenario/replication_limits.h"
#include "allocsim/trace/trace_source.h"
#include "allocsim/util/error.h"
#include "allocsim/util/interrupt_cleanup.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/output_path.h"
#include "allocsim/util/parallel.h"
#include "allocsim/util/staged_directory.h"
#include "commands.h"
#include "flag_checks.h"
#include "trace_argument.h"

namespace allocsim::cli {
namespace {

namespace fs = std::filesystem;

struct AdviseOptions {
  std::string trace;
  std::string names_from;
  std::optional<double> total_error, stack_mape, stack_seen;
  double confidence = 0.95;
  double stack_share = 0.01;
  std::uint64_t replications = 1000;
  std::uint64_t seed = 1;
  std::string out;
  double curve_samples_per_mb = 100;
  bool json = false;
  std::optional<unsigned> threads;  // none: every core
};

// The TRACE argument (trace_argument.h) as a trace source.
TraceSource read_source(const std::string& path, const std::string& names_from) {
  const nlohmann::json json = trace_argument(path, names_from);
  JsonObject object(json, path + ": $");
  return parse_trace_source(object, "");
}

// docs/advice.md's targets, for a user who gives none: the total within +-2%, and each
// stack holding >= 1% of the bytes within 10% MAPE and seen with probability 0.99.
constexpr double kDefaultTotalError = 0.02, kDefaultStackMape = 0.1, kDefaultStackSeen = 0.99;

bool has_targets(const AdviseOptions& o) { return o.total_error || o.stack_mape || o.stack_seen; }

// The flags' values were checked as they were read (open_fraction).
AccuracyTargets targets_of(const AdviseOptions& o) {
  if (!has_targets(o)) return {kDefaultTotalError, o.confidence, o.stack_share, kDefaultStackMape, kDefaultStackSeen};
  return {o.total_error, o.confidence, o.stack_share, o.stack_mape, o.stack_seen};
}

// The trace, refused when it allocates no bytes (no relative error exists).
Trace load_advised_trace(const AdviseOptions& o, const TraceSource& source) {
  Trace trace = load_trace(source, o.seed);
  if (std::all_of(trace.requested.begin(), trace.requested.end(), [](std::uint64_t s) { return s == 0; })) {
    throw InputError(o.trace + ": no bytes allocated");
  }
  return trace;
}

// --out: replaced whole, as a results directory: an error or an interrupt leaves the old one.
void write_out_directory(const AdviseOptions& o, const InputPaths& inputs, const Advisor& advisor,
                         const AdviceReport& report, const nlohmann::ordered_json& json, const std::string& text) {
  const double curve_samples = o.curve_samples_per_mb * advisor.trace_bytes() / 1e6;
  const AdviceFiles files{json_text(json, 2) + "\n", text, frontier_csv(report.frontier),
                          probability_curves_csv(probability_curves(advisor, curve_samples, report.mc.threads))};
  const std::string subject = fs::path(o.trace).filename().string();
  StagedDirectory staged(o.out, inputs, "advise " + subject, "--out");
  write_advice_files(staged.path(), subject, files, curve_samples, report.mc.threads);
  staged.commit();
}

void run_advise(const AdviseOptions& o) {
  const AccuracyTargets targets = targets_of(o);
  if (o.replications == 1) {
    throw InputError("--replications: give 0 (no Monte Carlo) or at least 2: one replication has no standard error");
  }
  const TraceSource source = read_source(o.trace, o.names_from);
  const InputPaths inputs = trace_argument_inputs(o.trace, source);
  if (!o.out.empty()) check_results_directory(o.out, inputs, "--out");
  const Trace trace = load_advised_trace(o, source);
  // Every core unless told: the check's result does not depend on the thread count.
  const MonteCarloOptions mc{.replications = o.replications,
                             .seed = o.seed,
                             .sigmas = 3,
                             .threads = o.threads.value_or(default_thread_count())};
  Advisor advisor(trace, targets);
  std::vector<SchemeAdvice> advice = advise_schemes(advisor, targets, mc);
  std::vector<AdvicePoint> frontier = advisor.frontier(mc.threads);
  const AdviceReport report{o.trace, !has_targets(o),   trace.size(),        trace.stack_count,
                            targets, std::move(advice), std::move(frontier), mc};
  const nlohmann::ordered_json json = advice_json(report);
  const std::string text = advice_text(report);
  if (!o.out.empty()) write_out_directory(o, inputs, advisor, report, json, text);
  if (o.json) {
    std::cout << json_text(json, 2) << '\n';
  } else {
    std::fputs(text.c_str(), stdout);
  }
}

}  // namespace

void add_advise_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<AdviseOptions>();
  CLI::App* command = app.add_subcommand(
      "advise", "largest sampling interval per scheme that meets accuracy targets on a trace, and the frontier");
  command->add_option("TRACE", o->trace, "trace file (any format allocsim reads) or a JSON trace object")->required();
  command->add_option("--names-from", o->names_from,
                      "raw heaptrack file: frame names from the interpreted file of the same run (the command "
                      "heaptrack -r prints makes it)");
  command
      ->add_option("--total-error", o->total_error,
                   "target: total bytes within +-e (a fraction; default with no target given: 0.02)")
      ->transform(open_fraction());
  command->add_option("--confidence", o->confidence, "confidence of the total target")
      ->capture_default_str()
      ->transform(open_fraction());
  command
      ->add_option("--stack-share", o->stack_share, "stack targets apply to stacks holding >= this fraction of bytes")
      ->capture_default_str()
      ->transform(open_fraction());
  command
      ->add_option("--stack-mape", o->stack_mape,
                   "target: MAPE of each such stack <= m (a fraction; default with no target given: 0.1)")
      ->transform(open_fraction());
  command
      ->add_option("--stack-seen", o->stack_seen,
                   "target: each such stack seen with probability >= q (default with no target given: 0.99)")
      ->transform(open_fraction());
  command
      ->add_option("--replications", o->replications,
                   "Monte Carlo replications to confirm each choice (0: none, else at least 2)")
      ->capture_default_str()
      ->check(whole_number(0, kMaxReplications));
  command->add_option("--seed", o->seed, "Monte Carlo seed (and a synthetic trace's, unless it fixes one)")
      ->capture_default_str()
      ->check(seed_number());
  command->add_option("--out", o->out,
                      "write advice.json, advice.txt, frontier.csv, probability-curves.csv and charts/ into this "
                      "directory\n(replaced whole; allocsim replaces only a directory it wrote)");
  command
      ->add_option("--curve-samples-per-mb", o->curve_samples_per_mb,
                   "--out: the expected samples (per MB of requests) the probability curves are drawn at")
      ->capture_default_str()
      ->check(positive_number());
  command->add_option("-j,--threads", o->threads, "worker threads of the Monte Carlo check (default: all cores)")
      ->check(thread_count());
  command->add_flag("--json", o->json, "print JSON");
  command->callback([o, &exit_code] {
    handle_interrupts();
    run_advise(*o);
    exit_code = 0;
  });
}

}  // namespace allocsim::cli
