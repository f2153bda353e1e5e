#pragma once
// `allocsim conformance SYSTEM`: runs a real sampler's driver K times on the
// standard plan, replays the same plan through allocsim's model of that system and
// compares them site by site (site_comparison.h).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "allocsim/conformance/driver_output.h"
#include "allocsim/conformance/model_moments.h"
#include "allocsim/conformance/plan.h"
#include "allocsim/conformance/site_comparison.h"
#include "allocsim/conformance/system.h"

namespace allocsim {

struct ConformanceOptions {
  std::string system;
  std::uint64_t runs = 100;
  std::optional<std::uint64_t> rate;  // default: the system's
  double plan_scale = 1.0;            // multiplies the plan's counts
  std::string source_dir;             // repository root
  std::string build_dir;              // drivers are built under <build_dir>/conformance/<system>
  unsigned parallel = 2;              // driver processes at a time
  double alpha = 1e-3;                // family-wise false-alarm rate of the verdict
  std::uint64_t model_replications = 4000;
  std::uint64_t seed = 1;
  unsigned threads = 1;  // the model's Monte Carlo worker threads; the result does not depend on it
};

struct ConformanceResult {
  const ConformanceSystem* system = nullptr;
  Plan plan;
  Trace trace;
  nlohmann::json scheme_parameters;
  std::string version;                         // the driver's meta version
  std::vector<std::vector<double>> counts;     // [run][site] sampled allocations
  std::vector<std::vector<double>> estimates;  // [run][site] the tool's estimate
  std::uint64_t distinct_runs = 0;             // runs whose sample lists differ from all others
  std::uint64_t size_mismatches = 0;           // planned sizes whose allocator size the model gets wrong
  std::uint64_t sizes_checked = 0;
  std::uint64_t sample_size_mismatches = 0;  // samples recorded with another size than the model's
  std::uint64_t sample_sizes_checked = 0;
  std::vector<std::string> unexplained;  // sample lines of sizes a site never allocates
  ModelMoments model;
  Comparison comparison;
  bool passed = false;
};

// The model side of a conformance run: the plan, replayed through allocsim's model of
// the system with what the driver's first run measured (its meta and sizes).
struct ConformanceModel {
  const ConformanceSystem* system = nullptr;
  Plan plan;
  nlohmann::json scheme_parameters;
  std::map<std::uint64_t, std::uint64_t> allocated;  // the trace's allocated column; empty: the model's sizes
  Trace trace;                                       // the plan
  Trace split;                                       // the plan with each size of a mixed site a stack of its own
  std::shared_ptr<const Scheme> scheme;
  ModelRequest request;
  ModelMoments moments, split_moments;
};

// The system and plan of `options`; InputError for a bad system, rate or plan.
ConformanceModel conformance_plan(const ConformanceOptions& options);
// The model of `plan` (from conformance_plan) given the driver's first run.
void fit_conformance_model(ConformanceModel& model, const DriverRun& first, const std::string& first_name);

// The verdict on K driver runs (`names` name them in messages) against the model.
ConformanceResult judge_conformance(const ConformanceModel& model, const std::vector<DriverRun>& runs,
                                    const std::vector<std::string>& names, double alpha);
// The same verdict without the model's plan, trace and scheme parameters, which
// judge_conformance copies in for the report: what a simulation of many verdicts
// needs (conformance/verdict_simulation.h).
ConformanceResult judge_runs(const ConformanceModel& model, const std::vector<DriverRun>& runs,
                             const std::vector<std::string>& names, double alpha);

// Builds and runs the system's driver `runs` times (InputError, with what it printed,
// when it fails to build or run) and returns the outputs and their file names.
std::vector<DriverRun> run_driver_processes(const ConformanceOptions& options, const ConformanceModel& model,
                                            std::uint64_t runs, std::vector<std::string>& names);

// All of the above. InputError for a bad system, rate or plan, and for a driver that
// fails to build or run.
ConformanceResult run_conformance(const ConformanceOptions& options);

}  // namespace allocsim
