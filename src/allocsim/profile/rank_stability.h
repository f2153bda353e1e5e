#pragma once
// Top-N stability of a profile by parametric resampling: each entry's true objects
// are fixed at the system's own estimate, another run of the program is drawn from
// the sampling model (Binomial(n, p(s)) samples for the per-allocation models,
// Poisson(B/T) for the byte-rate one), scaled as the system scales, and ranked by
// bytes. The resamples are replications of the engine's replication API
// (engine/replications.h): replication r of entry i draws from its own
// counter-based stream (seed, replication r, lane i), and the blocks' integer
// tallies are merged in block order, so the result depends only on the seed, never
// on the thread count.
//
// Entries absent from the profile (no sample) cannot be resampled; they could enter
// the top N in another run, so the probabilities here are upper bounds when small
// entries near the cut-off are common.
#include <cstdint>
#include <vector>

#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {

struct RankStability {
  std::vector<double> rank_kept;  // per top entry (in profile order by bytes): P(same rank)
  std::vector<double> in_top;     // per top entry: P(still among the top N)
  double set_unchanged = 0;       // P(the top-N set is the same, in any order)
  std::int64_t replications = 0;
};

// `order` lists entry indices by decreasing estimated bytes (see ranked_entries).
RankStability rank_stability(const HeapProfile& profile, const std::vector<std::size_t>& order, std::size_t top,
                             std::int64_t replications, std::uint64_t seed, unsigned threads = 1);

// Entry indices by decreasing estimate_bytes, ties by index.
std::vector<std::size_t> ranked_entries(const HeapProfile& profile);

// One resampled run of entry `entry`'s samples under the profile's model.
double resample_samples(const HeapProfile& profile, std::size_t entry, std::uint64_t seed, std::uint64_t replication);

}  // namespace allocsim::profile
