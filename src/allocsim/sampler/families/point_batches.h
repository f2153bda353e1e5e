#pragma once
// Skip-ahead over sample points whose positions do not depend on where the earlier
// points fell (poisson's continuous gaps, the carried countdowns without
// deterministic points): the positions are drawn a batch at a time, the batch's
// events found by one CountedStreams::find_sorted (whose cache misses overlap), and
// consecutive points in one event recorded together. The draws are the same, in
// the same order, as a point-by-point replay's.
#include <cstddef>
#include <cstdint>

#include "allocsim/trace/thread_index.h"

namespace allocsim {

// next(x) writes the next position into x (type Position: an integer count of
// units, or poisson's double) and returns false once none is left below the
// stream's total; it is called until it returns false, and first with no earlier
// position. emit(k, x, points) records event k of stream s, x its first point.
// Events are searched at the integer part of each position.
template <class Position, class Next, class Emit>
void batched_points(const CountedStreams& streams, std::uint32_t s, Next&& next, Emit&& emit) {
  constexpr std::size_t kBatch = 64;
  Position positions[kBatch];
  std::uint64_t bounds[kBatch];
  std::size_t events[kBatch];
  std::size_t open = 0, from = 0;  // the event with points not yet emitted, if points > 0
  Position first{};
  std::uint64_t points = 0;
  for (bool more = true; more;) {
    std::size_t m = 0;
    while (m < kBatch && (more = next(positions[m]))) {
      bounds[m] = static_cast<std::uint64_t>(positions[m]);
      ++m;
    }
    if (m == 0) break;
    streams.find_sorted(s, {bounds, m}, from, {events, m});
    for (std::size_t j = 0; j < m; ++j) {
      if (points > 0 && events[j] == open) {
        ++points;
        continue;
      }
      if (points > 0) emit(open, first, points);
      open = events[j];
      first = positions[j];
      points = 1;
    }
    from = events[m - 1];
  }
  if (points > 0) emit(open, first, points);
}

}  // namespace allocsim
