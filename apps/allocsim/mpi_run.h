#pragma once
// `allocsim run --mpi`, under mpirun: every rank computes its share of each
// scenario's work units (the shard rank/size), rank 0 gathers the partial states
// and writes the results a single process would. Built from apps/allocsim/mpi/
// when CMake finds MPI; otherwise --mpi is refused.
#include <functional>
#include <vector>

#include "scenario_runner.h"

namespace allocsim::cli {

// Returns true on rank 0, which called report() for each scenario it wrote.
bool run_with_mpi(const std::vector<Scenario>& scenarios, const ScenarioOptions& options,
                  const std::function<void(const Scenario&, const CompletedScenario&)>& report);

}  // namespace allocsim::cli
