// libFuzzer target: the partial-state files `allocsim merge` reads from other
// machines. The checksum (the last 8 bytes, engine/partial_state.h) is recomputed,
// so a mutation reaches the header, count and unit checks instead of stopping at
// the checksum. A part that decodes as the only shard of a small synthetic scenario
// is merged too (merge_units), so forged accumulator states and shapes reach the
// code that turns them into results.
#include <string>
#include <variant>
#include <vector>

#include "allocsim/engine/experiment.h"
#include "allocsim/engine/partial_state.h"
#include "fuzz_input.h"

namespace allocsim {
namespace {

// Merged only where it is quick: synthetic traces (a forged document could name
// any file) of few events in all, and few replications.
bool small_enough_to_merge(const Scenario& scenario, const PartialState& part) {
  if (part.header.shard.count != 1 || part.units.size() > 64) return false;
  std::uint64_t events = 0, replications = 0;
  for (const SweepPoint& point : scenario.points) {
    replications += scenario.replications * point.schemes.size();
    if (replications > 2048) return false;
    const auto* synthetic = std::get_if<SyntheticSpec>(&point.trace.spec);
    if (synthetic == nullptr) return false;
    events += synthetic->allocations;
  }
  return events <= 20000;
}

void decode_and_merge(const std::string& bytes) {
  PartialState part = decode_partial_state(bytes, "fuzz.part");
  const Scenario scenario = scenario_of(part.header);
  if (!small_enough_to_merge(scenario, part)) return;
  if (plan_work_units(scenario).size() != part.units.size()) return;  // indices are increasing: all of them
  merge_units(scenario, part.results, RunOptions{});                  // one thread, no progress line
}

}  // namespace
}  // namespace allocsim

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  allocsim::seal_partial_state(bytes);
  return allocsim::fuzz::expect_clean_rejection([&] { allocsim::decode_and_merge(bytes); });
}
