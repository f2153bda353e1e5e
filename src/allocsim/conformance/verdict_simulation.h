#pragma once
// The conformance verdict applied to driver outputs drawn from allocsim's model
// instead of the real tool: how often a correct model fails (the false-alarm rate of
// the verdict as it runs, including the model's own Monte Carlo error) and how often
// a known wrong one does (its power). Each simulated driver run is one replay of the
// scheme on the plan, written as the driver would write it (samples and the tool's
// profile or estimate lines), and judged like real runs (judge_runs).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "allocsim/conformance/conformance_run.h"

namespace allocsim {

// What the simulated tool does.
enum class SimulatedTruth {
  model,              // exactly what the model does
  requested_size,     // counts requested sizes against the sampling interval, not size classes
  per_stack_scaling,  // a profile whose lines are summed per stack before pprof scales them
};

// "model", "requested-size", "per-stack-scaling"; InputError naming --simulate-truth otherwise.
SimulatedTruth parse_simulated_truth(const std::string& name);

// `runs` driver outputs drawn under `truth` (replications [first, first + runs) of
// stream `seed`). `first` is the real driver's first run (meta and sizes are copied).
// InputError where the system cannot be simulated under `truth`.
std::vector<DriverRun> simulated_driver_runs(const ConformanceModel& model, const DriverRun& first,
                                             SimulatedTruth truth, std::uint64_t runs, std::uint64_t seed,
                                             std::uint64_t first_replication);

struct VerdictSimulation {
  std::uint64_t verdicts = 0;
  std::uint64_t failed = 0;
  std::map<std::string, std::uint64_t> failed_tests;  // "count mixed:16" -> verdicts it failed in
};

// `verdicts` simulated conformance runs of `runs` driver runs each, judged at `alpha`,
// on up to `threads` threads: verdict v draws replications [v runs, (v + 1) runs), so
// the counts are the same on any thread count.
VerdictSimulation simulate_verdicts(const ConformanceModel& model, const DriverRun& first, SimulatedTruth truth,
                                    std::uint64_t verdicts, std::uint64_t runs, double alpha, std::uint64_t seed,
                                    unsigned threads);

}  // namespace allocsim
