#pragma once
// Writes a conformance run to its results directory:
//   sites.csv     per site: model and observed counts, per-allocation probabilities,
//                 estimates, z-scores and p-values
//   tests.csv     every test of the verdict with its p-value and the Bonferroni threshold
//   runs.csv      per run and site: sampled allocations and the tool's estimate
//   summary.json  system, version, rate, runs, model, checks and the verdict
//   plan.txt, trace.csv.gz  the driver's plan and the same sequence as an allocsim
//                 CSV trace (gzip)
//   charts/count-ratio.{png,svg}   observed / model sampled count per site with a sample
//                 (log scale, gnuplot)
// and formats the verdict table printed by the command.
#include <string>

#include "allocsim/conformance/conformance_run.h"

namespace allocsim {

// Replaces `results_dir` whole, as a results directory (util/staged_directory.h).
// `chart`: render the chart (needs gnuplot). InputError naming the directory or file
// that cannot be created or written.
void write_conformance_results(const ConformanceResult& result, const ConformanceOptions& options,
                               const std::string& results_dir, bool chart);

std::string verdict_table(const ConformanceResult& result);

}  // namespace allocsim
