#include "allocsim/conformance/verdict_simulation.h"

#include <algorithm>

#include "allocsim/random/stream_purpose.h"
#include "allocsim/util/error.h"
#include "allocsim/util/parallel.h"

namespace allocsim {
namespace {

// Simulated draws use streams of their own, apart from the model's replays.
constexpr std::uint64_t kSimulationStream = stream_of(StreamPurpose::conformance_simulation);

void require(bool possible, const ConformanceSystem& system, const std::string& why) {
  if (!possible) throw InputError("--simulate-truth: cannot simulate " + system.name + ": " + why);
}

}  // namespace

SimulatedTruth parse_simulated_truth(const std::string& name) {
  if (name == "model") return SimulatedTruth::model;
  if (name == "requested-size") return SimulatedTruth::requested_size;
  if (name == "per-stack-scaling") return SimulatedTruth::per_stack_scaling;
  throw InputError("--simulate-truth: expected model, requested-size or per-stack-scaling, got \"" + name + "\"");
}

std::vector<DriverRun> simulated_driver_runs(const ConformanceModel& model, const DriverRun& first,
                                             SimulatedTruth truth, std::uint64_t runs, std::uint64_t seed,
                                             std::uint64_t first_replication) {
  const ConformanceSystem& system = *model.system;
  // Where the tool's estimate comes from a scaled profile, only a per-line scaling
  // of one-object lines can be written from the samples alone.
  const bool per_line_profile =
      system.scaling == ProfileScaling::average_size && system.estimator == "bytes" && system.one_line_per_sample;
  require(system.scaling == ProfileScaling::none || per_line_profile, system,
          "its profile sums a stack's samples in a way the samples alone do not give");
  require(truth != SimulatedTruth::requested_size || system.records_allocated_sizes, system,
          "its size classes are the model's own, not the trace's");
  require(truth != SimulatedTruth::per_stack_scaling || per_line_profile, system, "it writes no per-line profile");
  // The truth replays the plan; requested-size counting drops the allocated column.
  const Trace requested_trace = truth == SimulatedTruth::requested_size ? plan_trace(model.plan) : Trace{};
  const Trace& trace = truth == SimulatedTruth::requested_size ? requested_trace : model.trace;
  SchemeReplay replay(*model.scheme, trace);
  ReplayTotals totals;
  std::vector<DriverRun> out;
  for (std::uint64_t r = 0; r < runs; ++r) {
    replay_totals(replay, trace, model.request, {seed, kSimulationStream, first_replication + r}, totals);
    DriverRun run;
    run.meta = first.meta;
    run.sizes = first.sizes;
    std::map<std::string, DriverTotals> per_stack;
    for (const Observation& o : replay.observations()) {
      const std::size_t i = o.event;
      const bool live = trace.live_at_end(i);
      if (!live && !system.samples_include_freed) continue;
      const std::string& site = trace.stack_names[trace.stack[i]];
      // The size the driver records: the model's (for the real allocator's sizes, the trace's).
      const std::uint64_t usable = model.scheme->allocated_size(model.trace, i);
      run.samples.push_back({site, trace.requested[i], usable, live});
      if (!per_line_profile || !live) continue;
      const auto bytes = static_cast<double>(trace.requested[i]);
      if (truth == SimulatedTruth::per_stack_scaling) {
        DriverTotals& stack = per_stack[site];
        stack.site = site;
        stack.objects += 1;
        stack.bytes += bytes;
      } else {
        run.profile.push_back({site, 1, bytes});
      }
    }
    for (const auto& [site, stack] : per_stack) run.profile.push_back(stack);
    if (system.scaling == ProfileScaling::none) {
      for (std::uint32_t s = 0; s < trace.stack_count; ++s) {
        run.estimates.push_back({trace.stack_names[s], totals.counts[s], totals.estimates[s]});
      }
    }
    out.push_back(std::move(run));
  }
  return out;
}

VerdictSimulation simulate_verdicts(const ConformanceModel& model, const DriverRun& first, SimulatedTruth truth,
                                    std::uint64_t verdicts, std::uint64_t runs, double alpha, std::uint64_t seed,
                                    unsigned threads) {
  const std::vector<std::string> names(runs, "simulated run");
  // Counts per worker; their sums do not depend on which worker judged which verdict.
  std::vector<VerdictSimulation> each(std::max(threads, 1u));
  parallel_for(verdicts, threads,
               [&](std::size_t v, unsigned worker) {
                 const auto simulated = simulated_driver_runs(model, first, truth, runs, seed, v * runs);
                 const ConformanceResult result = judge_runs(model, simulated, names, alpha);
                 VerdictSimulation& out = each[worker];
                 ++out.verdicts;
                 if (result.passed) return;
                 ++out.failed;
                 for (const TestResult& t : result.comparison.tests) {
                   if (t.failed) ++out.failed_tests[t.name + (t.site.empty() ? "" : " " + t.site)];
                 }
                 if (!result.unexplained.empty() || result.size_mismatches + result.sample_size_mismatches > 0) {
                   ++out.failed_tests["sizes"];
                 }
                 if (result.distinct_runs != runs) ++out.failed_tests["repeated runs"];
               },
               {});
  VerdictSimulation out;
  for (const VerdictSimulation& one : each) {
    out.verdicts += one.verdicts;
    out.failed += one.failed;
    for (const auto& [test, times] : one.failed_tests) out.failed_tests[test] += times;
  }
  return out;
}

}  // namespace allocsim
