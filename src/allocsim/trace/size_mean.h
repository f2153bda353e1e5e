#pragma once
// The mean request size of a synthetic size distribution, from its parameters
// alone (nothing drawn): what a trace of n allocations is expected to request in
// all is n times it. Used to estimate a work unit's samples before its trace is
// built (engine/unit_cost.h).
#include "allocsim/trace/size_distribution.h"

namespace allocsim {

// Exact for the constant, sequence (over whole cycles), uniform, histogram and bucket
// families and mixtures of them; for log_uniform within half a byte (the floor is
// taken as removing half a byte); lognormal and pareto ignore the rounding to whole
// bytes and lognormal's clamp to [min, max].
double mean_size(const SizeDistribution& distribution);

}  // namespace allocsim
