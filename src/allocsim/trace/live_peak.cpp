#include "allocsim/trace/live_peak.h"

#include "allocsim/trace/frees_in_time_order.h"

namespace allocsim {

// A sweep over allocation and free times in order; all events of one time apply
// before the live total is compared. Frees never precede their allocation
// (Trace::validate), so the running total cannot go below zero.
LivePeak live_peak(const Trace& trace) {
  const auto frees = frees_in_time_order(trace);  // (free time, allocation)
  LivePeak peak;
  std::uint64_t live = 0;
  std::size_t i = 0, f = 0;
  while (i < trace.size() || f < frees.size()) {
    const bool allocation_first = f == frees.size() || (i < trace.size() && trace.time[i] <= frees[f].first);
    const std::uint64_t now = allocation_first ? trace.time[i] : frees[f].first;
    for (; i < trace.size() && trace.time[i] == now; ++i) live += trace.requested[i];
    for (; f < frees.size() && frees[f].first == now; ++f) live -= trace.requested[frees[f].second];
    if (live > peak.bytes) peak = {now, live};
  }
  return peak;
}

}  // namespace allocsim
