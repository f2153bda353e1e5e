#pragma once
// The frees of a trace in time order: what a sweep over allocations and frees merged
// in time (the live heap's peak, Scalene's net-footprint sampler) walks beside the
// allocations, which are already in time order.
#include <cstdint>
#include <utility>
#include <vector>

#include "allocsim/trace/trace.h"

namespace allocsim {

// (free time, allocation index) of every allocation freed before the trace's end,
// sorted by time, then by allocation.
std::vector<std::pair<std::uint64_t, std::uint64_t>> frees_in_time_order(const Trace& trace);

}  // namespace allocsim
