#pragma once
// The "count down, carry the leftover" family over integer units (heapprofd,
// memray, chromium, ddprof, ocaml), once for the streaming and once for the
// skip-ahead replay. Each system supplies its countdown as a small named struct:
// its gap draw, the size it counts, any deterministic points (Chromium's
// floor(acc/T)) and what it records.
//
// Sample points sit at 0-based positions G1 - 1, G1 + G2 - 1, ... of a counter's
// stream of counted units, Gj >= 1 the drawn gaps: every point inside an event
// counts, and the distance past the event's end to the next point is carried to the
// next event. With geometric gaps the points are a Bernoulli process on the units
// and an event of u units holds Binomial(u, p) of them, independently of every other
// event (byte_countdown.h). The continuous-gap `poisson` sampler is the same family
// in floating point, whose rounding order it keeps (poisson.h).
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/sampler/families/point_batches.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

// What a system of this family supplies:
//   units(i)                  the units event i counts (0: never sampled);
//   record(i, offset, points) records event i holding `points` sample points, the
//                             first at 0-based unit `offset`;
//   redraw(c)                 counter c's next gap (>= 1);
// optionally
//   deterministic(x, stop)    points an event adds beyond its first at x, before
//                             the drawn gaps resume (it may move x forward to
//                             where they do; stop: the event's end);
//   passes_through(i, u)      true when event i of u units is recorded whole by
//                             record_whole(i, u), outside the countdown, whose
//                             counter it leaves as it was.
template <class C>
concept CarriedCountdown = requires(C& c, std::size_t i, std::uint64_t u) {
  { c.units(i) } -> std::convertible_to<std::uint64_t>;
  c.record(i, u, u);
  { c.redraw(i) } -> std::convertible_to<std::uint64_t>;
};

template <class C>
concept HasDeterministicPoints = requires(C& c, std::uint64_t& x, std::uint64_t stop) {
  { c.deterministic(x, stop) } -> std::convertible_to<std::uint64_t>;
};

template <class C>
concept CarriedPassThrough = requires(C& c, std::size_t i, std::uint64_t u) {
  { c.passes_through(i, u) } -> std::convertible_to<bool>;
  c.record_whole(i, u);
};

// The points of one event [.., stop) from its first one at x: 1, plus the
// countdown's deterministic points, plus every gap drawn from counter c that stays
// below stop. `beyond` receives how far past stop the next point lies (>= 0). Never
// overflows: gaps are compared with the room left, not added to positions past stop.
template <class Countdown>
std::uint64_t carried_points(std::uint64_t x, std::uint64_t stop, std::size_t c, Countdown& countdown,
                             std::uint64_t& beyond) {
  std::uint64_t points = 1;
  if constexpr (HasDeterministicPoints<Countdown>) points += countdown.deterministic(x, stop);
  for (;;) {
    const std::uint64_t gap = countdown.redraw(c);
    if (gap >= stop - x) {
      beyond = gap - (stop - x);
      return points;
    }
    x += gap;
    ++points;
  }
}

// An event that holds counter c's next point at x: its points recorded; returns the
// distance past u to the next point. Kept out of line so that the replay loop
// around it keeps its variables in registers.
template <class Countdown>
[[gnu::noinline]] std::uint64_t carried_event(std::size_t i, std::size_t c, std::uint64_t x, std::uint64_t u,
                                              Countdown& countdown) {
  std::uint64_t beyond = 0;
  const std::uint64_t points = carried_points(x, u, c, countdown, beyond);
  countdown.record(i, x, points);
  return beyond;
}

// Streaming replay over events 0..n-1 with the counters `next` (one per thread, or
// one for the process; each gets its first gap here, counter by counter); event i
// counts down counter counter_of(i). next[c] holds the 0-based position of counter
// c's next point from the start of the next event it counts.
template <class CounterOf, CarriedCountdown Countdown>
void carried_countdown_replay(std::size_t n, std::span<std::uint64_t> next, CounterOf&& counter_of,
                              Countdown& countdown) {
  for (std::size_t c = 0; c < next.size(); ++c) next[c] = countdown.redraw(c) - 1;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = counter_of(i);
    const std::uint64_t u = countdown.units(i);
    if constexpr (CarriedPassThrough<Countdown>) {
      if (countdown.passes_through(i, u)) {
        countdown.record_whole(i, u);
        continue;
      }
    }
    std::uint64_t& x = next[c];
    if (x >= u) {  // the common case: no point inside
      x -= u;
      continue;
    }
    x = carried_event(i, c, x, u, countdown);
  }
}

// The same countdown over stream s of `streams` seen from the points, drawing
// exactly as carried_countdown_replay does for counter `counter` (redraw(counter));
// record gets the event's trace index. Without deterministic points the positions
// are the running sums of the gaps, G1 - 1, G1 + G2 - 1, ..., and are searched in
// batches (point_batches.h); otherwise the event holding each point is searched for
// alone and its further points counted by carried_points.
template <CarriedCountdown Countdown>
void carried_skip_ahead(const CountedStreams& streams, std::uint32_t s, std::size_t counter, Countdown& countdown) {
  const std::uint64_t end = streams.total(s);
  if constexpr (!HasDeterministicPoints<Countdown>) {
    std::uint64_t x = 0;
    bool started = false;
    batched_points<std::uint64_t>(
        streams, s,
        [&](std::uint64_t& next) {
          const std::uint64_t gap = countdown.redraw(counter);
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
        [&](std::size_t k, std::uint64_t first, std::uint64_t points) {
          countdown.record(streams.event(s, k), first - streams.at(s, k), points);
        });
    return;
  }
  std::uint64_t x = countdown.redraw(counter) - 1;  // 0-based position of the next point
  std::size_t k = 0;
  while (x < end) {
    k = streams.find(s, x, k);
    const std::uint64_t stop = streams.at(s, k + 1);
    std::uint64_t beyond = 0;
    const std::uint64_t points = carried_points(x, stop, counter, countdown, beyond);
    countdown.record(streams.event(s, k), x - streams.at(s, k), points);
    x = beyond > end - stop ? end : stop + beyond;  // saturate: nothing beyond end matters
  }
}

// The per-thread countdown of most systems of the family: counter t is traced
// thread t's and draws from lane t. `next` is the caller's buffer.
template <CarriedCountdown Countdown>
void per_thread_carried(const Trace& trace, std::vector<std::uint64_t>& next, Countdown&& countdown) {
  next.resize(trace.thread_count);
  const ThreadColumn& thread = trace.thread;
  carried_countdown_replay(
      trace.size(), std::span<std::uint64_t>(next), [&](std::size_t i) { return thread[i]; }, countdown);
}

// The same, skip-ahead, over the threads' counted streams (stream t: thread t).
template <CarriedCountdown Countdown>
void per_thread_carried_skip_ahead(const CountedStreams& streams, Countdown&& countdown) {
  for (std::uint32_t t = 0; t < streams.stream_count(); ++t) carried_skip_ahead(streams, t, t, countdown);
}

}  // namespace allocsim
