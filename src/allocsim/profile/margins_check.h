#pragma once
// The margins checked by the engine: the scheme's own sampler (src/allocsim/sampler/)
// replays the workload's trace, replications [0, R) of the engine's replication API
// (engine/replications.h, one replication's samples from engine/scheme_replay.h);
// each replication's value per site is its samples scaled as the model scales them
// (sample_weight), or for shares its bytes over those of the whole trace, and the check counts how often each site's
// value, the biased value (1 + b) times it, and any site at all fall outside their bands. Seeded and deterministic for
// any thread count (integer tallies merged in block order).
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
  // `count` replications as a fraction of them all.
  double fraction(std::uint64_t count) const { return static_cast<double>(count) / static_cast<double>(replications); }
};

// A stack that belongs to no checked site, in the stack -> site tables of the checks.
inline constexpr std::uint32_t kNoSite = ~std::uint32_t{0};

// `margins.sites` must be sites of `trace` (their stack ids); replications >= 1.
MarginCheck check_margins(const Margins& margins, const Scheme& scheme, const Trace& trace, std::uint64_t replications,
                          std::uint64_t seed, unsigned threads);

// Sites whose power has no closed form (union bounds, shares) take the engine's measured power.
void fill_power_from_check(Margins& margins, const MarginCheck& check);

// Whether the check agrees with the stated false-failure rate a of the whole test.
// If the bands hold a, the replications that fail anywhere are at most Binomial(R, a)
// (fewer when the bands are conservative). The check passes while P(Binomial(R, a) >=
// measured) > kCheckFalseAlarm: a check of bands that do hold a fails with
// probability at most 1e-6 (the binomial's upper tail).
inline constexpr double kCheckFalseAlarm = 1e-6;

struct CheckBound {
  std::uint64_t allowed_failures = 0;  // the most whole-test failures that pass
  bool passed = true;
};
CheckBound check_bound(const MarginCheck& check, double false_failure);

}  // namespace allocsim::profile
