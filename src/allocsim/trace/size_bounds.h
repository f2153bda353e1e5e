#pragma once
// The smallest size a size distribution draws (size_distribution.h): a trace of n
// allocations holds at least n times it, whatever is drawn.
#include <cstdint>

#include "allocsim/trace/size_distribution.h"

namespace allocsim {

std::uint64_t smallest_size(const SizeDistribution& distribution);

}  // namespace allocsim
