#pragma once
// Per-group sums of a scheme's per-allocation theory (EstimatorTheory::allocations),
// laid out like the accumulators: SlotLayout{windows, estimators}.
#include <vector>

#include "allocsim/sampler/scheme.h"
#include "allocsim/stats/groups.h"
#include "allocsim/stats/window.h"

namespace allocsim {

std::vector<AllocationTheory> sum_allocation_theory(const Trace& trace, const GroupIndex& groups,
                                                    const std::vector<Window>& windows, const Scheme& scheme);

}  // namespace allocsim
