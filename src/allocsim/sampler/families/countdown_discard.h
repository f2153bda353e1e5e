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
#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

// What a system of this family supplies: its countdown, written as a small named
// struct in the system's folder.
//   units(i)             the units event i counts (0: never sampled);
//   record(i, u, offset) records event i of u units, `offset` its sampled unit;
//   redraw(c)            counter c's fresh failures: its first draw, and the draw
//                        after each record (taken up to kFirstSuccessDrawsAhead
//                        draws ahead of the records by first_success_skip_ahead).
// Optionally (a system that records some events whole, outside the countdown):
//   passes_through(i, u) true when event i of u units is recorded whole by
//                        record_whole(i, u); its counter is then redrawn.
template <class C>
concept FirstSuccessCountdown = requires(C& c, std::size_t i, std::uint64_t u) {
  { c.units(i) } -> std::convertible_to<std::uint64_t>;
  c.record(i, u, u);
  { c.redraw(i) } -> std::convertible_to<std::uint64_t>;
};

template <class C>
concept HasPassThrough = requires(C& c, std::size_t i, std::uint64_t u) {
  { c.passes_through(i, u) } -> std::convertible_to<bool>;
  c.record_whole(i, u);
};

// An event that holds counter c's sampled unit at offset `left`: recorded, and the
// counter's fresh draw returned. Kept out of line so that the replay loop around it
// keeps its variables in registers.
template <class Countdown>
[[gnu::noinline]] std::uint64_t first_success_event(std::size_t i, std::size_t c, std::uint64_t u, std::uint64_t left,
                                                    Countdown& countdown) {
  countdown.record(i, u, left);
  return countdown.redraw(c);
}

// Streaming replay over events 0..n-1 with the counters `failures` (one per thread,
// or one for the process), each already holding its first draw; event i counts
// down counter counter_of(i).
template <class CounterOf, FirstSuccessCountdown Countdown>
void first_success_replay(std::size_t n, std::span<std::uint64_t> failures, CounterOf&& counter_of,
                          Countdown& countdown) {
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = counter_of(i);
    const std::uint64_t u = countdown.units(i);
    std::uint64_t& left = failures[c];
    if constexpr (HasPassThrough<Countdown>) {
      if (countdown.passes_through(i, u)) {
        countdown.record_whole(i, u);
        left = countdown.redraw(c);
        continue;
      }
    }
    if (left >= u) {  // the common case: the sampled unit lies beyond this event
      left -= u;
      continue;
    }
    left = first_success_event(i, c, u, left, countdown);
  }
}

// The same countdown over stream s of `streams` seen from the sampled units:
// redraw(s) returns the failures before the next sampled unit (may be as large as
// UINT64_MAX); the event holding that unit is recorded (record(i, u, offset): i its
// trace index, u its counted units, offset the sampled unit's 0-based offset in
// them), and the next draw counts from the end of that event.
//
// The draws are taken kFirstSuccessDrawsAhead at a time. Every wait starts at least
// one unit after the last sampled one, so the draws f_1..f_m ahead of a wait
// starting at `start` place their sampled units at or beyond the lower bounds
// b_j = start + sum_{i<=j} f_i + (j - 1). Those bounds are searched together
// (find_sorted overlaps their cache misses, as the poisson replay's batches do), and
// each exact search then starts from its bound's event, a few events short of the
// answer on lines already fetched. That pays for long waits only: when a batch's
// bounds lie fewer than kFar events apart on average (the blocks a search steps
// through one by one before it searches a segment), the exact search finds its lines
// in cache, where the last one left them, and searching twice costs more than it
// saves (docs/speed.md, "Draws taken ahead").
//
// redraw is called in the same order as first_success_replay calls it for this
// stream, once at the start and once after each sample, so the observations are the
// same bits; only at the end of the stream a batch may hold up to kAhead - 1 draws
// that the streaming replay would not have drawn. So the countdown's draws for
// stream s must come from state that no other stream's walk draws from (lane s, or
// a shared state the caller seeds again before each stream), and its record may read
// the draws only in the order they were made (the JVM's, through a queue).
inline constexpr std::size_t kFirstSuccessDrawsAhead = 16;

template <FirstSuccessCountdown Countdown>
void first_success_skip_ahead(const CountedStreams& streams, std::uint32_t s, Countdown& countdown) {
  constexpr std::size_t kAhead = kFirstSuccessDrawsAhead;
  constexpr double kFar = CompactPrefix::kBlock * CompactPrefix::kNearBlocks;
  constexpr std::size_t kBlindBatches = 8;
  std::array<std::uint64_t, kAhead> draws{}, bounds{};
  std::array<std::size_t, kAhead> near{};
  const std::uint64_t end = streams.total(s);
  const double units_per_event =
      static_cast<double>(end) / static_cast<double>(std::max<std::size_t>(streams.size(s), 1));
  std::uint64_t start = 0;  // counted units before the current wait
  std::size_t k = 0;        // first event of the current wait
  // Batches left that search no bounds because the last searched batch's bounds
  // fell too far behind their answers (heavy-tailed sizes: each sampled event's
  // remainder, up to its size, separates a bound from the next sampled unit).
  std::size_t blind = 0;
  for (;;) {
    std::size_t drawn = 0, bounded = 0;
    for (std::uint64_t bound = start; drawn < kAhead;) {
      const std::uint64_t failures = countdown.redraw(s);
      draws[drawn++] = failures;
      if (failures >= end - bound) break;  // the real wait ends past the stream too
      bounds[bounded++] = bound + failures;
      bound += failures + 1;
      if (bound >= end) break;
    }
    const bool search =
        blind == 0 && bounded > 0 &&
        static_cast<double>(bounds[bounded - 1] - start) >= kFar * units_per_event * static_cast<double>(bounded);
    blind -= blind > 0 ? 1 : 0;
    if (search) streams.find_sorted(s, {bounds.data(), bounded}, k, {near.data(), bounded});
    std::size_t close = 0;  // searched: answers within kFar events of their bound's event
    for (std::size_t j = 0; j < drawn; ++j) {
      if (draws[j] >= end - start) return;
      const std::uint64_t x = start + draws[j];  // 0-based position of the sampled unit
      k = streams.find(s, x, search ? near[j] : k);
      const std::uint64_t first = streams.at(s, k);
      start = streams.at(s, k + 1);
      countdown.record(streams.event(s, k), start - first, x - first);
      close += search && static_cast<double>(k - near[j]) < kFar ? 1 : 0;
      ++k;
    }
    if (search && 2 * close < drawn) blind = kBlindBatches;
  }
}

// The per-thread countdown most systems run: counter t is traced thread t's and
// draws from lane t; each gets its first draw, in thread order, then the events
// count down their own thread's counter. `failures` is the caller's buffer.
template <FirstSuccessCountdown Countdown>
void per_thread_first_success(const Trace& trace, std::vector<std::uint64_t>& failures, Countdown&& countdown) {
  failures.resize(trace.thread_count);
  for (std::size_t t = 0; t < failures.size(); ++t) failures[t] = countdown.redraw(t);
  read_unescaped(trace.thread, [&](const auto& thread) {
    first_success_replay(
        trace.size(), std::span<std::uint64_t>(failures), [&](std::size_t i) { return thread[i]; }, countdown);
  });
}

// The same, skip-ahead, over the threads' counted streams (stream t: thread t):
// redraw(t) must depend on lane t alone and record must read nothing redraw sets
// (one countdown serves every stream here, so a queue of draws would carry one
// stream's unrecorded draws into the next).
template <FirstSuccessCountdown Countdown>
void per_thread_first_success_skip_ahead(const CountedStreams& streams, Countdown&& countdown) {
  for (std::uint32_t t = 0; t < streams.stream_count(); ++t) {
    first_success_skip_ahead(streams, t, countdown);
  }
}

}  // namespace allocsim
