#pragma once
// Partial-state files (engine/partial_state.h) as `run --shard`, `merge` and
// `run --mpi` use them: one shard's run written to a file, and the parts of a
// scenario checked and put back together in unit order.
#include <string>
#include <vector>

#include "allocsim/engine/partial_state.h"
#include "scenario_runner.h"

namespace allocsim::cli {

// The scenario's shard `shard` computed and encoded.
std::string run_part(const Scenario& scenario, Shard shard, const RunOptions& run);

// `run --shard K/N --out PART`: the shard's part file, written whole or not at all.
void run_shard(const Scenario& scenario, const ScenarioOptions& options);

// Every unit's state of one scenario, from its parts.
struct CombinedParts {
  Scenario scenario;
  std::vector<BlockResult> units;    // indexed like plan_work_units(scenario)
  std::vector<std::string> origins;  // per unit, the name of the part it came from
};

// Checks that `parts` (named by `names`) are all N shards of one scenario, seed and
// allocsim version, each exactly once, then puts their units in order; any other
// set of parts is an InputError naming the part at fault, and so are parts run on
// other traces than each other or than the scenario's trace files hold now. The
// units' shapes are checked by merge_units, which sets up the traces they need
// (pass it `origins`).
CombinedParts combine_parts(std::vector<PartialState>&& parts, const std::vector<std::string>& names);

}  // namespace allocsim::cli
