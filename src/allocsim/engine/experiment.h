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
#include "allocsim/stats/interval_accumulator.h"
#include "allocsim/stats/metrics.h"
#include "allocsim/trace/trace_summary.h"

namespace allocsim {

struct MetricRow {
  std::size_t point = 0;  // index into Scenario::points
  std::string scheme;     // label
  std::string estimator;  // "bytes", "live_bytes", ...
  GroupKind group_kind = GroupKind::total;
  std::string group;
  Metrics metrics;
};

struct IntervalRow {
  std::size_t point = 0;
  std::string scheme;
  std::string estimator;
  std::string interval;  // the method: "wald", "nb-exact", ...
  GroupKind group_kind = GroupKind::total;
  std::string group;
  IntervalMetrics metrics;
};

// The profile as a whole, for one group kind: how far the estimated distribution
// of the quantity over groups is from the true one (total variation distance).
struct ProfileRow {
  std::size_t point = 0;
  std::string scheme;
  std::string estimator;
  GroupKind group_kind = GroupKind::stack;
  std::uint32_t groups = 0;  // groups holding some of the quantity
  std::uint64_t replications = 0;
  double mean_distance = 0;
  double se_distance = 0;
  double mean_groups_seen = 0;
};

struct ReplicationEstimates {
  std::size_t point = 0;
  std::string scheme;
  std::string estimator;
  double truth = 0;
  std::vector<double> estimates;  // one per replication, in replication order
};

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
ScenarioResult merge_units(const Scenario& scenario, const std::vector<BlockResult>& units,
                           const RunOptions& options, const std::vector<std::string>& origins = {});

}  // namespace allocsim
