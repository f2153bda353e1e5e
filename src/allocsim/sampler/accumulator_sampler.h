#pragma once
// The accumulator sampler shared by Chromium's PoissonAllocationSampler
// (base/sampling_heap_profiler/poisson_allocation_sampler.cc) and Datadog's ddprof
// (src/lib/allocation_tracker.cc, 3c60440).
//
// Each thread keeps acc < 0, initially minus the first interval. An allocation adds
// its size s; while acc < 0 nothing happens. Otherwise
//   samples = acc / T (integer division), acc %= T,
//   do { acc -= interval; ++samples; } while (acc >= 0);
// so a large allocation gets floor(acc/T) samples deterministically plus a random
// remainder, and the (negative) leftover is carried. Interval: trunc(-T ln u)
// clamped to [8, 20 T]. The observers get weight T * samples.
//
// Theory (continuous model: exponential intervals, the leftover -X with X ~ Exp(T)
// after every slow path, by memorylessness, so allocations are independent). With
// sigma = s/T, an allocation is sampled iff X <= s (pi = 1 - e^-sigma); then
// a = s - X and n = floor(a/T) + 1 + Poisson((a mod T)/T), E[n | a] = a/T + 1. So
//   E[T n] = s  (unbiased),
//   Var[T n] = T^2 (f + e^-f - e^-sigma + (e^-f - e^-sigma)/(e - 1)),  f = sigma - floor(sigma),
// which is T s for s < T (Poisson) but stays below ~1.6 T^2 for s >> T (Poisson:
// T s). Truncated intervals have mean E floor(X) = 1/(e^(1/T) - 1) ~ T - 1/2 for
// X ~ Exp(T): +1/(2T) relative.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

// Var[T n] / T^2 of one allocation of sigma = s/T (see above).
inline double accumulator_count_variance(double sigma) {
  const double f = sigma - std::floor(sigma);
  const double tail = std::exp(-sigma), ef = std::exp(-f);
  return f + ef - tail + (ef - tail) / std::expm1(1.0);
}

// GetNextSampleInterval: trunc(-T ln u) clamped to [8, 20 T] (Chromium:
// sizeof(intptr_t) .. 20 T; ddprof the same).
inline std::int64_t accumulator_interval(double u, double period) {
  const double value = std::clamp(exponential_from_uniform(u, period), 8.0, 20 * period);
  return static_cast<std::int64_t>(value);
}

class AccumulatorSampler {
 public:
  explicit AccumulatorSampler(std::int64_t period) : period_(period) {}
  // For replay_skip_ahead only: `requested` is CountedStreams::requested(index).
  AccumulatorSampler(std::int64_t period, std::shared_ptr<const CountedStreams> requested)
      : period_(period), requested_(std::move(requested)) {}

  // The same accumulator seen from its crossings: with acc = -r the byte at 0-based
  // position x = start + r - 1 of the thread's stream makes it reach 0; the
  // allocation holding x leaves acc = (its end) - (x + 1) >= 0, which the slow path
  // turns into samples and a new -r. Same draws in the same order as replay():
  // identical observations, thread by thread.
  template <class Stream>
  void replay_skip_ahead(const Trace& /*trace*/, const ThreadIndex& /*index*/, std::span<Stream> lanes,
                         std::vector<Observation>& out) const {
    const CountedStreams& streams = *requested_;
    for (std::uint32_t t = 0; t < streams.stream_count(); ++t) {
      const std::uint64_t end = streams.total(t);
      auto r = static_cast<std::uint64_t>(draw(lanes[t]));
      std::uint64_t x = r - 1;
      std::size_t k = 0;
      while (x < end) {
        k = streams.find(t, x, k);
        const std::uint64_t event_end = streams.at(t, k + 1);
        auto acc = static_cast<std::int64_t>(event_end - (x + 1));
        std::int64_t samples = acc / period_;
        acc %= period_;
        do {
          acc -= draw(lanes[t]);
          ++samples;
        } while (acc >= 0);
        const std::uint64_t offset = x - streams.at(t, k);
        x = event_end + static_cast<std::uint64_t>(-acc) - 1;
        ++k;
        out.push_back({streams.event(t, k - 1), static_cast<std::uint32_t>(std::min<std::int64_t>(samples, UINT32_MAX)),
                       offset, static_cast<double>(period_) * static_cast<double>(samples)});
      }
    }
  }

  // Observation: samples = n, weight = T n, offset = the first sample point's
  // 0-based offset in the allocation.
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    acc_.resize(lanes.size());
    for (std::size_t t = 0; t < lanes.size(); ++t) acc_[t] = -draw(lanes[t]);
    const std::uint64_t* requested = trace.requested.data();
    const std::uint32_t* thread = trace.thread.data();
    const std::size_t n = trace.size();
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t t = thread[i];
      const auto s = static_cast<std::int64_t>(std::min<std::uint64_t>(requested[i], kMaxSize));
      std::int64_t acc = acc_[t] + s;
      if (acc < 0) {
        acc_[t] = acc;
        continue;
      }
      const auto offset = static_cast<std::uint64_t>(s - acc - 1);  // where acc reached 0
      std::int64_t samples = acc / period_;
      acc %= period_;
      do {
        acc -= draw(lanes[t]);
        ++samples;
      } while (acc >= 0);
      acc_[t] = acc;
      out.push_back({i, static_cast<std::uint32_t>(std::min<std::int64_t>(samples, UINT32_MAX)), offset,
                     static_cast<double>(period_) * static_cast<double>(samples)});
    }
  }

 private:
  // Sizes are signed in the code (intptr_t); larger requests fail anyway.
  static constexpr std::uint64_t kMaxSize = std::uint64_t{1} << 62;

  template <class Stream>
  std::int64_t draw(Stream& lane) const {
    return accumulator_interval(lane.next_uniform(), static_cast<double>(period_));
  }

  std::int64_t period_;
  std::vector<std::int64_t> acc_;  // per thread: accumulated bytes, < 0 between allocations
  std::shared_ptr<const CountedStreams> requested_;  // skip-ahead only
};

}  // namespace allocsim
