#pragma once
// `dd-trace-php`: Datadog's PHP profiler, allocation sampling (DataDog/dd-trace-php
// 93f7b2d, profiling/src/allocation/mod.rs; the upscaling of libdatadog
// libdd-profiling/src/internal/upscaling.rs, UpscalingInfo::Poisson).
//
// Each thread (the stats are thread-local) holds next_sample, drawn from
// Poisson(lambda = D), D = DEFAULT_ALLOCATION_SAMPLING_INTERVAL = 4 MiB. An
// allocation of len bytes does `next_sample -= len`; while it stays > 0 nothing is
// recorded, otherwise the allocation is recorded (count 1, bytes len) and a fresh
// Poisson(D) is drawn: the overshoot is discarded (countdown_discard.h). The sampled
// byte is byte N of the countdown (failures N - 1; a draw N = 0 samples the next
// allocation of at least one byte -- the code would also take a zero-byte one).
//
// A Poisson(D) gap has standard deviation sqrt(D) (2 KiB at 4 MiB, 0.05 %): the
// countdown is a near-fixed stride, not the memoryless exponential gap its
// upscaling assumes. In a run of allocations of one size s the sampled one is
// every K-th, K = max(1, ceil(N/s)), so the long-run share of allocations sampled is
// 1/E[K] with E[K] = 1 + sum_{j >= 1} P(N > j s) (a renewal process; ddtrace_php_
// samples_expected gives E[samples] over n allocations exactly), not 1 - e^(-s/D).
//
// The profile upscales each aggregated sample (stack + labels) by
// 1 / (1 - e^(-(sum/count)/D)), from its summed bytes and count:
//   bytes, count:  that scale times the group's sampled bytes, or its samples
//                  (non-linear, from the registers (bytes, samples));
//   bytes_ht:      s / (1 - e^(-s/D)) per sample (the same scaling unbiased
//                  per allocation; still biased, the inclusion is not exponential);
//   count_raw:     the samples, not upscaled.
// Relative bias of bytes for one size: (1/E[K]) / (1 - e^(-s/D)) - 1, a sawtooth in
// s/D: it jumps where D/s crosses an integer (+58 % just above s = D, where every
// allocation is sampled but scaled by 1.58) and is near 0 for s << D.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/random/poisson_draw.h"
#include "allocsim/sampler/families/countdown_discard.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

inline constexpr std::uint64_t kDdTracePhpDistance = 1024 * 4096;

class DdTracePhpSampler {
 public:
  explicit DdTracePhpSampler(double distance) : draw_(distance) {}
  // For replay_skip_ahead only: `requested` is CountedStreams::requested(index).
  DdTracePhpSampler(double distance, std::shared_ptr<const CountedStreams> requested)
      : draw_(distance), requested_(std::move(requested)) {}

  // The countdowns seen from the sampled bytes: same draws in the same order,
  // identical observations, thread by thread.
  template <class Stream>
  void replay_skip_ahead(const Trace& /*trace*/, const ThreadIndex& /*index*/, std::span<Stream> lanes,
                         std::vector<Observation>& out) const {
    per_thread_first_success_skip_ahead(*requested_, NextSample<Stream>{draw_, nullptr, lanes, out});
  }

  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    per_thread_first_success(trace, next_sample_, NextSample<Stream>{draw_, &trace.requested, lanes, out});
  }

 private:
  // should_collect_allocation: next_sample -= len; recorded once it is <= 0.
  template <class Stream>
  struct NextSample {
    const PoissonDraw& draw;
    const SizeColumn* requested;  // streaming only
    std::span<Stream> lanes;
    std::vector<Observation>& out;

    std::uint64_t units(std::size_t i) const { return (*requested)[i]; }
    void record(std::size_t i, std::uint64_t, std::uint64_t offset) { out.push_back({i, 1, offset, 0.0}); }
    // next_sample = N: byte N (1-based) is the sampled one, N - 1 bytes pass before.
    std::uint64_t redraw(std::size_t t) {
      Stream& lane = lanes[t];
      const std::uint64_t n = draw([&lane] { return lane.next_uniform(); });
      return n == 0 ? 0 : n - 1;
    }
  };

  PoissonDraw draw_;
  std::vector<std::uint64_t> next_sample_;           // per thread: bytes that pass before the sampled one
  std::shared_ptr<const CountedStreams> requested_;  // skip-ahead only
};

// E[samples] over n allocations of s >= 1 bytes on one thread from a fresh
// countdown, exactly: the renewal sum u_m = sum_k P(K = k) u_(m-k), u_0 = 1, summed
// over m = 1..n, with K = max(1, ceil(N/s)), N ~ Poisson(distance).
double ddtrace_php_samples_expected(std::uint64_t s, std::uint64_t n, double distance);

SchemeDescriptor dd_trace_php_scheme();

}  // namespace allocsim
