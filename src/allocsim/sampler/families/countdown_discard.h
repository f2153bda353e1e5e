#pragma once
// The "count down, sample, discard the leftover" family (jemalloc, tcmalloc,
// gperftools, dotnet, go, jvm, v8, dotnet-tick reset), once for the streaming and
// once for the skip-ahead replay. Each system supplies its draw, the size it counts
// and what it records; this file holds the countdown itself.
//
// A counter holds the failures: the counted units (bytes, words) that pass before
// the next sampled one. An event of u counted units with failures >= u only lowers
// it; otherwise unit `failures` (0-based) of the event is the sampled one, the event
// is recorded once with that offset, and a fresh draw replaces the leftover. When a
// draw is memoryless (geometric, or a floored exponential), events are sampled
// independently with pi(u) = P(failures < u): the per-allocation theory of the
// systems' files (exponential_inclusion.h).
#include <cstddef>
#include <cstdint>
#include <span>

#include "allocsim/trace/thread_index.h"

namespace allocsim {

// An event that holds counter c's sampled unit at offset `left`: recorded with
// emit(i, u, left); returns the counter's fresh draw. Kept out of line so that the
// replay loop around it keeps its variables in registers.
template <class Emit, class Draw>
[[gnu::noinline]] std::uint64_t first_success_event(std::size_t i, std::size_t c, std::uint64_t u, std::uint64_t left,
                                                    Emit& emit, Draw& draw) {
  emit(i, u, left);
  return draw(c);
}

// Streaming replay over events 0..n-1 with the counters `failures` (one per thread,
// or one for the process), each already holding its first draw:
//   counter_of(i) -> the counter event i counts down;
//   count(i)      -> the units event i counts (0: never sampled; a system that
//                    records an event outside the countdown, e.g. a pass-through,
//                    does it here and returns 0);
//   emit(i, u, offset) records the sampled event (offset: the sampled unit);
//   draw(c)       -> counter c's fresh failures, called after each emit.
template <class CounterOf, class Count, class Emit, class Draw>
void first_success_replay(std::size_t n, std::span<std::uint64_t> failures, CounterOf&& counter_of, Count&& count,
                          Emit&& emit, Draw&& draw) {
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = counter_of(i);
    const std::uint64_t u = count(i);
    std::uint64_t& left = failures[c];
    if (left >= u) {  // the common case: the sampled unit lies beyond this event
      left -= u;
      continue;
    }
    left = first_success_event(i, c, u, left, emit, draw);
  }
}

// The same countdown over stream s of `streams` seen from the sampled units: draw()
// returns the failures before the next sampled unit (may be as large as
// UINT64_MAX); the event holding that unit is sampled with emit(k, offset) (k: its
// position in the stream, offset: the sampled unit's 0-based offset in its counted
// size), and the next draw counts from the end of that event. draw() is called
// exactly as often, and in the same order, as first_success_replay calls it for
// this stream: once at the start and once after each sample.
template <class Draw, class Emit>
void first_success_skip_ahead(const CountedStreams& streams, std::uint32_t s, Draw&& draw, Emit&& emit) {
  const std::uint64_t end = streams.total(s);
  std::uint64_t start = 0;  // counted units before the current wait
  std::size_t k = 0;        // first event of the current wait
  for (;;) {
    const std::uint64_t failures = draw();
    if (failures >= end - start) return;
    const std::uint64_t x = start + failures;  // 0-based position of the sampled unit
    k = streams.find(s, x, k);
    emit(k, x - streams.at(s, k));
    ++k;
    start = streams.at(s, k);
  }
}

}  // namespace allocsim
