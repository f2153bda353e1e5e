#pragma once
// Runs a scenario: sweep points are taken in waves of consecutive points; a wave's
// set-up (traces, group indexes, truths, theory sums) runs on the worker threads,
// then all its work units (engine/work_units.h) are replicated in one pool.
// Replication r of scheme k at point j draws from the stream (seed,
// stream_id(j, k), r) and blocks are merged in block order, so results are
// bit-identical for any thread count, and for any split of the units among
// shards or MPI ranks (run_units, then merge_units).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "allocsim/engine/replications.h"
#include "allocsim/engine/scheme_evaluator.h"
#include "allocsim/scenario/scenario.h"
#include "allocsim/stats/result_rows.h"
#include "allocsim/trace/trace_summary.h"

namespace allocsim {

struct ScenarioResult {
  std::vector<MetricRow> rows;
  std::vector<IntervalRow> interval_rows;
  std::vector<ProfileRow> profile_rows;
  std::vector<TraceTotals> traces;  // one per sweep point
  std::vector<ReplicationEstimates> estimates;
  unsigned threads = 1;
  double wall_seconds = 0;
};

struct RunOptions {
  unsigned threads = 1;
  bool progress = false;  // a progress line on stderr
  // Asked on the calling thread about four times a second while replications run
  // (and before each sweep point); true stops the run with RunCancelled.
  std::function<bool()> cancelled;
};

// The seed synthetic generators get when their spec does not fix one: derived
// from the scenario seed, independent of the sampling streams.
std::uint64_t trace_seed(std::uint64_t scenario_seed);

ScenarioResult run_scenario(const Scenario& scenario, const RunOptions& options);

// The accumulator state of the listed work units (indices into
// plan_work_units(scenario), increasing), each in the order given: a shard's or
// a rank's share. Only the points these units need are set up.
std::vector<BlockResult> run_units(const Scenario& scenario, const std::vector<std::size_t>& units,
                                   const RunOptions& options);

// The scenario's result from the state of every one of its work units (indexed
// like plan_work_units(scenario)), set up again point by point: the same bits as
// run_scenario. `wall_seconds` is this call's own. A unit's state not shaped like
// its scheme's on the scenario (a corrupt or forged part) is an InputError naming
// origins[unit], the part it came from ("work unit U" when `origins` is empty).
ScenarioResult merge_units(const Scenario& scenario, const std::vector<BlockResult>& units, const RunOptions& options,
                           const std::vector<std::string>& origins = {});

}  // namespace allocsim
