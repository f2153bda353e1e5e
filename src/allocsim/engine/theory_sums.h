#pragma once
// Per-group sums of a scheme's per-allocation theory (Scheme::allocation_theory),
// laid out like the accumulators: accumulator_index(E, slot, window, estimator).
#include <vector>

#include "allocsim/sampler/scheme.h"
#include "allocsim/stats/groups.h"

namespace allocsim {

std::vector<AllocationTheory> sum_allocation_theory(const Trace& trace, const GroupIndex& groups,
                                                    const Scheme& scheme);

}  // namespace allocsim
