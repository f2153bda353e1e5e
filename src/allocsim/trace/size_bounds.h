#pragma once
// The smallest and the largest size a size distribution draws (size_distribution.h):
// a trace of n allocations holds at least n times the one and at most n times the
// other, whatever is drawn.
#include <cstdint>

#include "allocsim/trace/size_distribution.h"

namespace allocsim {

std::uint64_t smallest_size(const SizeDistribution& distribution);
std::uint64_t largest_size(const SizeDistribution& distribution);

}  // namespace allocsim
