#pragma once
// The margins checked by the engine: the scheme's own sampler (src/allocsim/sampler/)
// replays the workload's trace, replications [0, R) of the engine's replication API
// (engine/replications.h, one replication's samples from engine/scheme_replay.h);
// each replication's value per site is its samples scaled as the model scales them
// (sample_weight), or for shares its bytes over those of the whole trace, and the check counts how often each site's value, the biased value
// (1 + b) times it, and any site at all fall outside their bands. Seeded and
// deterministic for any thread count (integer tallies merged in block order).
#include <cstdint>
#include <vector>

#include "allocsim/profile/margins.h"
#include "allocsim/sampler/scheme.h"
#include "allocsim/trace/trace.h"

namespace allocsim::profile {

struct MarginCheck {
  std::uint64_t replications = 0;
  std::vector<std::uint64_t> failures;    // per site: value outside its band
  std::vector<std::uint64_t> detections;  // per site: biased value outside its band
  std::uint64_t any_failure = 0;          // some site outside its band

  void merge(const MarginCheck& block);
};

// `margins.sites` must be sites of `trace` (their stack ids); replications >= 1.
MarginCheck check_margins(const Margins& margins, const Scheme& scheme, const Trace& trace,
                          std::uint64_t replications, std::uint64_t seed, unsigned threads);

// Sites whose power has no closed form (union bounds, shares) take the engine's measured power.
void fill_power_from_check(Margins& margins, const MarginCheck& check);

}  // namespace allocsim::profile
