#pragma once
// `memleak`: bcc's memleak with -s N (iovisor/bcc 6d0a964, libbpf-tools/memleak.bpf.c
// gen_alloc_enter and gen_alloc_exit2, libbpf-tools/memleak.c print_outstanding_allocs;
// tools/memleak.py does the same with SAMPLE_EVERY_N).
//
// When sample_rate N > 1, gen_alloc_enter keeps an allocation iff
//   bpf_ktime_get_ns() % N == 0,
// the low digits of the kernel's monotonic clock standing in for a random draw
// ("sample every N-th allocation", the -s help text). A kept allocation goes into
// the `allocs` map with its requested size; free() deletes it; the report lists the
// allocations still in the map by stack: their raw sizes summed and their number,
// nothing scaled by N (with -C, update_statistics_add adds `size` and 1 alike).
//
// The clock model. bpf_ktime_get_ns() is CLOCK_MONOTONIC read through the current
// clocksource, so its readings step by that clocksource's period g, not by 1 ns:
// g = 1 ns on a GHz TSC; 100 ns on Hyper-V's reference TSC page and its MSR
// (torvalds/linux drivers/clocksource/hyperv_timer.c: clocksource_register_hz(...,
// NSEC_PER_SEC/100)); 1000 ns on the BCM2835 system timer (bcm283x.dtsi
// clock-frequency = <1000000>); TICK_NSEC (4 ms at HZ = 250) on the jiffies
// clocksource (kernel/time/jiffies.c, mult = TICK_NSEC << JIFFIES_SHIFT). We read
//   reading_i = g * floor((t_i + phi + U_i) / g)
// with t_i the allocation's time on the program's wall clock (families/wall_clock.h),
// phi the clock's phase at the program's start, uniform on {0, .., L - 1} with
// L = lcm(g, N), drawn once per replication, and U_i a per-allocation jitter uniform
// on {0, .., J - 1} (J = 0: none) for the gap between the program's pace and the
// probe's clock read. Readings are multiples of g: the lattice includes 0, as it does
// for a clocksource counting whole periods from boot (an NTP-slewed `mult` moves it
// slowly; not modelled).
//
// Kept fraction: reading_i = k g is a multiple of N iff N/d divides k, d = gcd(g, N);
// t + phi is uniform modulo L = g (N/d), so k is uniform modulo N/d and
//   P(kept) = gcd(g, N) / N          for every allocation, whatever the trace,
// not 1/N: g = 1000, N = 1024 keeps 1/128 (8x too many); g = 1000, N = 1000 keeps
// all; g = 100, N = 1024 keeps 1/256. Kept allocations are dependent (one phase per
// run; without jitter, evenly paced allocations fall on a few residues).
// Estimators, per kept allocation: bytes_raw s and count_raw 1 (what memleak prints;
// expectation d/N of the truth), bytes N s and count N (scaled as a reader would;
// relative bias d - 1). Outstanding allocations are the live_ window of each.
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "allocsim/sampler/families/wall_clock.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

// The clock bpf_ktime_get_ns() reads, as modelled above.
struct MemleakClock {
  WallClockSettings wall;         // when each allocation happens
  std::uint64_t granularity = 1;  // g: ns per clocksource period
  std::uint64_t jitter = 0;       // J: per-allocation jitter, uniform on {0 .. J - 1} ns
};

// L = lcm(g, N): the period of the readings' residues modulo N.
inline std::uint64_t memleak_clock_period(std::uint64_t granularity, std::uint64_t every) {
  return std::lcm(granularity, every);
}

// P(kept) = gcd(g, N) / N (1 for N <= 1, which keeps everything).
inline double memleak_kept_fraction(std::uint64_t granularity, std::uint64_t every) {
  if (every <= 1) return 1.0;
  return static_cast<double>(std::gcd(granularity, every)) / static_cast<double>(every);
}

// Uniform on {0, .., bound - 1} (bound >= 1), by Lemire's multiply-and-reject: exact.
template <class Stream>
std::uint64_t memleak_uniform_below(Stream& stream, std::uint64_t bound) {
  __extension__ typedef unsigned __int128 Wide;
  const std::uint64_t threshold = (0 - bound) % bound;  // 2^64 mod bound
  for (;;) {
    const Wide product = static_cast<Wide>(stream.next_u64()) * bound;
    if (static_cast<std::uint64_t>(product) >= threshold) return static_cast<std::uint64_t>(product >> 64);
  }
}

class MemleakSampler {
 public:
  MemleakSampler(std::uint64_t every, MemleakClock clock) : every_(every), clock_(clock) {}

  // One clock for the process: the phase and the jitter come from lane 0.
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) const {
    __extension__ typedef unsigned __int128 Wide;
    WallClock wall(clock_.wall, trace);
    Stream& lane = lanes[0];
    const std::uint64_t g = clock_.granularity;
    const std::uint64_t phase = memleak_uniform_below(lane, memleak_clock_period(g, every_));
    const std::size_t n = trace.size();
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t t = wall.at(i);
      const std::uint64_t jitter = clock_.jitter > 0 ? memleak_uniform_below(lane, clock_.jitter) : 0;
      // gen_alloc_enter: if (sample_rate > 1 && bpf_ktime_get_ns() % sample_rate != 0) skip.
      if (every_ > 1) {
        std::uint64_t at = 0;
        if (__builtin_add_overflow(t, phase, &at) || __builtin_add_overflow(at, jitter, &at)) {  // past 2^64 ns
          const Wide reading = (static_cast<Wide>(t) + phase + jitter) / g * g;
          if (reading % every_ != 0) continue;
        } else if ((g == 1 ? at : at / g * g) % every_ != 0) {
          continue;
        }
      }
      out.push_back({i, 1, 0, 0.0});
    }
  }

 private:
  std::uint64_t every_;  // N, -s
  MemleakClock clock_;
};

SchemeDescriptor memleak_scheme();

}  // namespace allocsim
