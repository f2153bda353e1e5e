#pragma once
// The high-water mark of a trace's live heap: when the requested bytes of the
// allocations not yet freed are largest.
#include <cstdint>

#include "allocsim/trace/trace.h"

namespace allocsim {

struct LivePeak {
  std::uint64_t time = 0;   // the earliest time the peak is reached (0 for an empty trace)
  std::uint64_t bytes = 0;  // live requested bytes then
};

// A snapshot at time t sees every event stamped <= t (allocations and frees alike).
LivePeak live_peak(const Trace& trace);

}  // namespace allocsim
