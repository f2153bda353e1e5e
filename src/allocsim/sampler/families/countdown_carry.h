#pragma once
// The "count down, carry the leftover" family over integer units (heapprofd,
// memray, chromium, ddprof, ocaml), once for the streaming and once for the
// skip-ahead replay. Each system supplies its gap draw, the size it counts, any
// deterministic points (Chromium's floor(acc/T)) and what it records.
//
// Sample points sit at 0-based positions G1 - 1, G1 + G2 - 1, ... of a counter's
// stream of counted units, Gj >= 1 the drawn gaps: every point inside an event
// counts, and the distance past the event's end to the next point is carried to the
// next event. With geometric gaps the points are a Bernoulli process on the units
// and an event of u units holds Binomial(u, p) of them, independently of every other
// event (byte_countdown.h). The continuous-gap `poisson` sampler is the same family
// in floating point, whose rounding order it keeps (poisson.h).
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "allocsim/sampler/families/point_batches.h"
#include "allocsim/trace/thread_index.h"

namespace allocsim {

// No points but the drawn ones.
struct NoDeterministicPoints {
  std::uint64_t operator()(std::uint64_t& /*x*/, std::uint64_t /*stop*/) const { return 0; }
};

// The points of one event [.., stop) from its first one at x: 1, plus what
// deterministic(x, stop) adds (it may move x forward, to where the drawn gaps
// resume), plus every drawn gap that stays below stop. `beyond` receives how far
// past stop the next point lies (>= 0). Never overflows: gaps are compared with the
// room left, not added to positions past stop.
template <class Draw, class Deterministic>
std::uint64_t carried_points(std::uint64_t x, std::uint64_t stop, Draw&& draw, Deterministic&& deterministic,
                             std::uint64_t& beyond) {
  std::uint64_t points = 1 + deterministic(x, stop);
  for (;;) {
    const std::uint64_t gap = draw();
    if (gap >= stop - x) {
      beyond = gap - (stop - x);
      return points;
    }
    x += gap;
    ++points;
  }
}

// An event that holds counter c's next point at x: its points recorded with
// emit(i, x, points); returns the distance past u to the next point. Kept out of
// line so that the replay loop around it keeps its variables in registers.
template <class Draw, class Deterministic, class Emit>
[[gnu::noinline]] std::uint64_t carried_event(std::size_t i, std::size_t c, std::uint64_t x, std::uint64_t u,
                                              Draw& draw, Deterministic& deterministic, Emit& emit) {
  std::uint64_t beyond = 0;
  const std::uint64_t points = carried_points(x, u, [&] { return draw(c); }, deterministic, beyond);
  emit(i, x, points);
  return beyond;
}

// Streaming replay over events 0..n-1 with the counters `next` (one per thread, or
// one for the process; each gets its first gap here, counter by counter):
//   counter_of(i) -> the counter event i counts;
//   count(i)      -> the units event i counts (0: never sampled; a system that
//                    records an event outside the countdown, e.g. a pass-through,
//                    does it here and returns 0);
//   draw(c)       -> counter c's next gap (>= 1);
//   emit(i, offset, points) records event i with its first point's offset.
// next[c] holds the 0-based position of counter c's next point from the start of
// the next event it counts.
template <class CounterOf, class Count, class Draw, class Deterministic, class Emit>
void carried_countdown_replay(std::size_t n, std::span<std::uint64_t> next, CounterOf&& counter_of, Count&& count,
                              Draw&& draw, Deterministic&& deterministic, Emit&& emit) {
  for (std::size_t c = 0; c < next.size(); ++c) next[c] = draw(c) - 1;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = counter_of(i);
    const std::uint64_t u = count(i);
    std::uint64_t& x = next[c];
    if (x >= u) {  // the common case: no point inside
      x -= u;
      continue;
    }
    x = carried_event(i, c, x, u, draw, deterministic, emit);
  }
}

// The same countdown over stream s of `streams` seen from the points, drawing
// exactly as carried_countdown_replay does for this stream; emit(k, offset,
// points) gets the event's position in the stream. Without deterministic points
// the positions are the running sums of the gaps, G1 - 1, G1 + G2 - 1, ..., and
// are searched in batches (point_batches.h); otherwise the event holding each
// point is searched for alone and its further points counted by carried_points.
template <class Draw, class Deterministic, class Emit>
void carried_skip_ahead(const CountedStreams& streams, std::uint32_t s, Draw&& draw, Deterministic&& deterministic,
                        Emit&& emit) {
  const std::uint64_t end = streams.total(s);
  if constexpr (std::is_same_v<std::remove_cvref_t<Deterministic>, NoDeterministicPoints>) {
    std::uint64_t x = 0;
    bool started = false;
    batched_points<std::uint64_t>(
        streams, s,
        [&](std::uint64_t& next) {
          const std::uint64_t gap = draw();
          if (!started) {
            started = true;
            x = gap - 1;
          } else {
            if (gap >= end - x) return false;  // compared with the room left: never overflows
            x += gap;
          }
          next = x;
          return x < end;
        },
        [&](std::size_t k, std::uint64_t first, std::uint64_t points) { emit(k, first - streams.at(s, k), points); });
    return;
  }
  std::uint64_t x = draw() - 1;  // 0-based position of the next point
  std::size_t k = 0;
  while (x < end) {
    k = streams.find(s, x, k);
    const std::uint64_t stop = streams.at(s, k + 1);
    std::uint64_t beyond = 0;
    const std::uint64_t points = carried_points(x, stop, draw, deterministic, beyond);
    emit(k, x - streams.at(s, k), points);
    x = beyond > end - stop ? end : stop + beyond;  // saturate: nothing beyond end matters
  }
}

}  // namespace allocsim
