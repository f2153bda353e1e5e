#pragma once
// A scenario's work units: (sweep point, scheme, block of replications), listed
// point by point, scheme by scheme, block by block. The threads of one process,
// the shards of `allocsim run --shard` and the ranks of `--mpi` all take the same
// units, and each job's blocks are merged in block order, so the results are
// bit-identical however the units were spread.
#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/scenario/scenario.h"

namespace allocsim {

struct WorkUnit {
  std::size_t point = 0;
  std::size_t scheme = 0;
  std::uint64_t block = 0;
  std::uint64_t replications = 0;  // in this block
  double cost = 0;                 // estimated: replications x replication_cost (unit_cost.h)
};

// Replications per unit: kReplicationsPerBlock (32), or fewer when the scenario
// holds fewer than kMinimumUnits * 32 replications in all, so that a small
// scenario still has about kMinimumUnits units. A function of the scenario only.
inline constexpr std::uint64_t kMinimumUnits = 24;
std::uint64_t replications_per_unit(const Scenario& scenario);

std::vector<WorkUnit> plan_work_units(const Scenario& scenario);

// Shard `index` of `count` (0 <= index < count).
struct Shard {
  std::uint64_t index = 0;
  std::uint64_t count = 1;
};

// "K/N"; anything else is an InputError naming `where` (the flag).
Shard parse_shard(const std::string& text, const std::string& where);

// The units of one shard, in increasing order: the list is cut into `count`
// consecutive runs of about equal estimated cost, so a shard loads few traces and
// the shards' costs differ by at most about one unit's cost. Shards past the
// number of units are empty.
std::vector<std::size_t> units_of_shard(const std::vector<WorkUnit>& units, Shard shard);

}  // namespace allocsim
