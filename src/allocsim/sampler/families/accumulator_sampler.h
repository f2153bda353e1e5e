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
#include <memory>
#include <span>
#include <vector>

#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/families/countdown_carry.h"
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

  // The same accumulator seen from its crossings (countdown_carry.h): with acc = -r
  // the byte at 0-based position x = start + r - 1 of the thread's stream makes it
  // reach 0. Same draws in the same order as replay(): identical observations,
  // thread by thread.
  template <class Stream>
  void replay_skip_ahead(const Trace& /*trace*/, const ThreadIndex& /*index*/, std::span<Stream> lanes,
                         std::vector<Observation>& out) const {
    per_thread_carried_skip_ahead(*requested_, Crossings<Stream>{*this, nullptr, lanes, out});
  }

  // The accumulator as a carried countdown: acc = -(x + 1) with x the 0-based
  // position of the byte that makes it reach 0, so "acc + s < 0" is x >= s and the
  // first sample point's offset is x. Observation: samples = n, weight = T n.
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    per_thread_carried(trace, next_, Crossings<Stream>{*this, &trace.requested, lanes, out});
  }

 private:
  // The accumulator's countdown: each thread's drawn intervals over its requested
  // bytes, plus the slow path's floor(acc / T) points; an allocation holding n
  // crossings is recorded with n samples of weight T each.
  template <class Stream>
  struct Crossings {
    const AccumulatorSampler& sampler;
    const SizeColumn* requested;  // streaming only
    std::span<Stream> lanes;
    std::vector<Observation>& out;

    std::uint64_t units(std::size_t i) const { return std::min<std::uint64_t>((*requested)[i], kMaxSize); }
    void record(std::size_t i, std::uint64_t offset, std::uint64_t samples) {
      out.push_back({i, sample_count(samples), offset, sampler.weight(samples)});
    }
    std::uint64_t redraw(std::size_t t) { return sampler.draw(lanes[t]); }
    // The slow path's "samples = acc / T, acc %= T" with acc = stop - 1 - x, the
    // bytes of the event after the point at x: floor(acc / T) points, and the drawn
    // gaps resume as if the point sat acc mod T bytes before the event's last byte.
    std::uint64_t deterministic(std::uint64_t& x, std::uint64_t stop) const {
      const auto period = static_cast<std::uint64_t>(sampler.period_);
      const std::uint64_t acc = stop - 1 - x;
      x = stop - 1 - acc % period;
      return acc / period;
    }
  };

  // Sizes are signed in the code (intptr_t); larger requests fail anyway.
  static constexpr std::uint64_t kMaxSize = std::uint64_t{1} << 62;

  template <class Stream>
  std::uint64_t draw(Stream& lane) const {
    return static_cast<std::uint64_t>(accumulator_interval(lane.next_uniform(), static_cast<double>(period_)));
  }

  double weight(std::uint64_t samples) const { return static_cast<double>(period_) * static_cast<double>(samples); }

  std::int64_t period_;
  std::vector<std::uint64_t> next_;                  // per thread: -acc - 1, acc < 0 the accumulated bytes
  std::shared_ptr<const CountedStreams> requested_;  // skip-ahead only
};

}  // namespace allocsim
