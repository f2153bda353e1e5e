// `allocsim run --mpi` with Open MPI: rank r computes shard r/size of each
// scenario, rank 0 gathers every rank's encoded partial state (MPI_Gatherv) and
// merges them in unit order. A failure on any rank aborts the whole job
// (MPI_Abort), before rank 0 has created any results directory.
#include <mpi.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "allocsim/engine/experiment.h"
#include "allocsim/util/error.h"
#include "mpi_run.h"
#include "part_files.h"

namespace allocsim::cli {
namespace {

// Every rank's bytes, on rank 0 (empty elsewhere), in rank order.
std::vector<std::string> gather_on_root(const std::string& mine, int rank, int size) {
  if (mine.size() > static_cast<std::size_t>(INT_MAX)) {
    throw InputError("--mpi: rank " + std::to_string(rank) +
                     "'s partial state exceeds one MPI message (2 GiB); "
                     "use more ranks or --shard");
  }
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(rank == 0 ? size : 0), displacements(rank == 0 ? size : 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (rank == 0) {
    long long total = 0;
    for (int r = 0; r < size; ++r) {
      displacements[r] = static_cast<int>(total);
      total += counts[r];
      if (total > INT_MAX) throw InputError("--mpi: the gathered partial states exceed 2 GiB; use --shard");
    }
    all.resize(static_cast<std::size_t>(total));
  }
  MPI_Gatherv(mine.data(), count, MPI_CHAR, all.data(), counts.data(), displacements.data(), MPI_CHAR, 0,
              MPI_COMM_WORLD);
  std::vector<std::string> parts;
  for (int r = 0; rank == 0 && r < size; ++r) parts.push_back(all.substr(displacements[r], counts[r]));
  return parts;
}

bool run_ranks(const std::vector<Scenario>& scenarios, const ScenarioOptions& options,
               const std::function<void(const Scenario&, const CompletedScenario&)>& report, int rank, int size) {
  for (const Scenario& scenario : scenarios) {
    const auto started = std::chrono::steady_clock::now();
    RunOptions run = run_options(options);
    run.progress = run.progress && rank == 0;
    const Shard shard{static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(size)};
    const std::vector<std::string> parts = gather_on_root(run_part(scenario, shard, run), rank, size);
    if (rank != 0) continue;
    std::vector<PartialState> states;
    std::vector<std::string> names;
    for (int r = 0; r < size; ++r) {
      names.push_back("MPI rank " + std::to_string(r));
      states.push_back(decode_partial_state(parts[r], names.back()));
    }
    CombinedParts combined = combine_parts(std::move(states), names);
    ScenarioResult result = merge_units(scenario, combined.units, run, combined.origins);
    result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    report(scenario, write_results(scenario, std::move(result), options));
  }
  return rank == 0;
}

[[noreturn]] void abort_job(int rank, const char* kind, const char* message, int code) {
  std::fprintf(stderr, "allocsim: %s (MPI rank %d): %s\n", kind, rank, message);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

}  // namespace

bool run_with_mpi(const std::vector<Scenario>& scenarios, const ScenarioOptions& options,
                  const std::function<void(const Scenario&, const CompletedScenario&)>& report) {
  MPI_Init(nullptr, nullptr);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bool root = false;
  try {
    root = run_ranks(scenarios, options, report, rank, size);
  } catch (const InputError& e) {
    abort_job(rank, "error", e.what(), 2);
  } catch (const std::exception& e) {
    abort_job(rank, "internal error", e.what(), 3);
  }
  MPI_Finalize();
  return root;
}

}  // namespace allocsim::cli
