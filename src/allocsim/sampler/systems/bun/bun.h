#pragma once
// `bun`: Bun.pprof.heap, Bun's sampling profiler of its native (mimalloc) heap
// (oven-sh/bun PR #42626, open since 2026-09-13: `Bun.pprof.heap.start({ sampleInterval
// })`, `bun --pprof-heap`), a profiler on mimalloc's mi_profiler_t hooks.
//
// Which allocation is sampled: mimalloc's page-refill batching, as for mimalloc's own
// profiler (mimalloc/mimalloc_pages.h): the countdown is charged by the blocks a page
// handed out when its free list runs dry, so a sample lands on a refilling allocation
// (or on one too big for a batch). The PR sets its floor by it: MIN_SAMPLE_INTERVAL =
// 64 KiB because "mimalloc counts small allocations when their page is refilled, up to
// 64 KiB of blocks at a time".
//
// Thresholds: on_alloc returns next_interval = clamp(trunc(-ln U * T), 1, 16 T), U from
// a per-thread xorshift64* (here: the replication's uniform on (0, 1]); T =
// sampleInterval, DEFAULT_SAMPLE_INTERVAL = 512 KiB, at least MIN_SAMPLE_INTERVAL.
//   E[X] = 1 + sum_{k=2}^{16T} e^(-k/T)   (P(X >= k) = e^(-k/T) for 2 <= k <= 16T)
// (bun_mean_interval), ~T - 1/2.
//
// What it records: the sampled stack's bucket gets alloc_bytes += bytes_since_last_sample
// (mimalloc's requested_since_last_sample: the bytes counted since the thread's previous
// sample, at block sizes, plus the sampled request) and alloc_objects += max(1,
// bytes_since_last_sample / requested_size). Estimators:
//   bytes_since_last: the credit. Summed over a whole single-thread run it is the bytes
//     counted (block sizes, not requests: bins round 65 bytes up to 80) up to the last
//     sample, but a site is credited with the bytes of every site that allocated in
//     between; a small site's blocks are counted in batches that land on whatever
//     allocation refills next. With mimalloc's "min" reset (mimalloc_pages.h) each
//     credit also counts max(0, X' - X) bytes that were never allocated: E[credit per
//     sample] = E[X] (+ the sampled request), while samples come every E[min(X, X')]
//     bytes: the total is E[X] / E[min(X, X')] ~ 2 times the truth.
//   objects_since_last: max(1, credit / s) per sample, the credit divided by the
//     sampled request: the count of a site is right only if every byte credited to it
//     came in objects of its size.
#include <cmath>
#include <cstdint>

#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/mimalloc/mimalloc.h"

namespace allocsim {

inline constexpr std::uint64_t kBunDefaultInterval = 512 * 1024;
inline constexpr std::uint64_t kBunMinInterval = 64 * 1024;

// next_interval for the uniform u in (0, 1].
inline std::uint64_t bun_next_interval(double u, std::uint64_t interval) {
  const double x = std::trunc(exponential_from_uniform(u, static_cast<double>(interval)));
  const double cap = 16.0 * static_cast<double>(interval);
  if (!(x >= 1)) return 1;
  return x >= cap ? 16 * interval : static_cast<std::uint64_t>(x);
}

// P(X >= k) for the interval law.
inline double bun_survival(std::uint64_t k, std::uint64_t interval) {
  if (k <= 1) return 1.0;
  if (k > 16 * interval) return 0.0;
  return std::exp(-static_cast<double>(k) / static_cast<double>(interval));
}

// E[X] = sum_{k >= 1} P(X >= k).
inline double bun_mean_interval(std::uint64_t interval) {
  double mean = 0;
  for (std::uint64_t k = 1; k <= 16 * interval; ++k) mean += bun_survival(k, interval);
  return mean;
}

// E[min(X, X')] for independent X, X' = sum_k P(X >= k)^2.
inline double bun_mean_min_interval(std::uint64_t interval) {
  double mean = 0;
  for (std::uint64_t k = 1; k <= 16 * interval; ++k) mean += bun_survival(k, interval) * bun_survival(k, interval);
  return mean;
}

struct BunDraw {
  bool main_thread_starts_at_one = false;  // Bun starts every thread at T (initial_sample_rate)
  template <class Stream>
  std::uint64_t operator()(Stream& lane, std::uint64_t interval) const {
    return bun_next_interval(lane.next_uniform(), interval);
  }
};

SchemeDescriptor bun_scheme();

}  // namespace allocsim
