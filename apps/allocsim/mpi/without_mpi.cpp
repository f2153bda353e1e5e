// `--mpi` in a build without MPI (CMake found none): a clear refusal.
#include "allocsim/util/error.h"
#include "mpi_run.h"

namespace allocsim::cli {

bool run_with_mpi(const std::vector<Scenario>&, const ScenarioOptions&,
                  const std::function<void(const Scenario&, const CompletedScenario&)>&) {
  throw InputError("--mpi: this allocsim was built without MPI (install libopenmpi-dev and rebuild)");
}

}  // namespace allocsim::cli
