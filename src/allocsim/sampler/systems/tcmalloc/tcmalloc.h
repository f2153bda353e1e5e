#pragma once
// `tcmalloc`: tcmalloc's allocation sampler as its code does it (tcmalloc/sampler.h,
// sampler.cc RecordAllocationSlow / PickNextSamplingPoint, allocation_sampling.h,
// stack_trace_table.cc; google/tcmalloc fce3f55), the model of the "Detailed
// treatment of weighting" of tcmalloc's docs/sampling.md.
//
// Each thread keeps a counter c. An allocation of r requested bytes decrements
// k = r + 1 ("avoid missampling 0"); it is sampled iff c < k (the unsigned
// subtraction underflows), i.e. the (c+1)-th byte of its k is the sampled one. Then
// the leftover is discarded (countdown_discard.h) and c is redrawn: c = max(0, floor(E) - 1), E ~ Exp(mean
// T) (kIntervalOffset = 1; T = 1 samples everything). At most one sample per
// allocation. The sample's weight is W = T + k - f with f = c + 1 the bytes up to
// and including the sampled one: the sampled byte stands for T bytes, the k - f
// after it for their expectation.
//
// Estimators (per sampled allocation, a = tcmalloc's size-class or page-rounded size,
// tcmalloc_size_classes.h):
//   bytes = W a / (r + 1),   count = W / (r + 1).
// Option round_counts models the profile's per-sample rounding (StackTraceTable::
// AddTrace): bytes' = floor(W a / (r+1) + 0.5), count = floor((bytes' + floor(a/2)) / a),
// bytes = count * a. Option size_correction = false reads W itself as bytes (the
// counted r + 1, not a): mean r + 1 per allocation, biased by (r + 1)/a - 1.
//
// Theory. In the continuous model (sample points a Poisson process of rate 1/T on
// each thread's stream of k's, f the first point's position) an allocation is
// sampled with pi = 1 - e^(-k/T), E[W 1{sampled}] = k exactly and
//   Var[W 1{sampled}] = int_0^k (T + k - x)^2 e^(-x/T) dx / T - k^2 = T^2 (1 - e^(-k/T)),
// independently per allocation; summed, T^2 sum_i pi_i lies between T^2 (one huge
// allocation; the document's T^2 - T for geometric gaps) and T M (all k << T). The
// integer gaps differ from it by O(1/T) per byte (each byte a Bernoulli(1 - e^(-1/T))
// trial, and one extra trial on the first byte after a redraw). That extra trial adds
// ~1/T to the chance k/T of a small allocation right after a sample, so the count
// estimate is biased by about (the share of allocations that follow a sample) x
// mean 1/k: negligible when samples are rare next to allocations, +4.4% measured at
// T = 256 over log-uniform sizes of 1 B - 4 KiB (the unrounded theory still says 0;
// tests/scheme_descriptor_test.cpp checks it at T = 16 KiB). With round_counts the
// rounded count takes at most three values per allocation, so its mean and variance
// are computed exactly under the integer-gap model (f geometric on {1, ..., k}).
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/families/countdown_discard.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/tcmalloc/tcmalloc_random.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

class TcmallocSampler {
 public:
  // faithful: draw intervals with tcmalloc's LCG (tcmalloc_random.h), seeded per
  // thread from its lane; otherwise an ideal exponential from the lane's uniforms.
  TcmallocSampler(std::uint64_t period, bool faithful) : period_(period), faithful_(faithful) {}

  // The same countdown seen from the sampled bytes, over each thread's stream of
  // requested + 1 bytes per allocation (the ThreadIndex prefix plus k, no new
  // memory): a counter of c bytes starting at byte position b samples the
  // allocation holding byte b + c, with offset f - 1 = c - (bytes before it) and
  // W = T + k - f, and the next interval starts after it. Lanes are seeded and drawn
  // in the same order as replay(): identical observations, thread by thread.
  template <class Stream>
  void replay_skip_ahead(const Trace& /*trace*/, const ThreadIndex& index, std::span<Stream> lanes,
                         std::vector<Observation>& out) {
    const CountedStreams streams = CountedStreams::requested(index, 1);
    lcg_.clear();
    if (faithful_) {
      for (auto& lane : lanes) lcg_.emplace_back(lane.next_u64());
    }
    per_thread_first_success_skip_ahead(streams, Points<Stream>{*this, nullptr, lanes, out});
  }

  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    lcg_.clear();
    if (faithful_) {
      for (auto& lane : lanes) lcg_.emplace_back(lane.next_u64());
    }
    per_thread_first_success(trace, counter_, Points<Stream>{*this, &trace.requested, lanes, out});
  }

 private:
  // tcmalloc's countdown: each thread's bytes_until_sample over k = requested + 1
  // bytes per allocation; the allocation that crosses it is sampled with weight
  // T + k - f, and a fresh point picked.
  template <class Stream>
  struct Points {
    TcmallocSampler& sampler;
    const SizeColumn* requested;  // streaming only
    std::span<Stream> lanes;
    std::vector<Observation>& out;

    std::uint64_t units(std::size_t i) const { return (*requested)[i] + 1; }
    void record(std::size_t i, std::uint64_t k, std::uint64_t counter) {
      out.push_back({i, 1, counter, sampler.weight(k, counter)});
    }
    std::uint64_t redraw(std::size_t t) { return sampler.pick_next_sampling_point(lanes, t); }
  };

  // W = T - (counter - k + 1) = T + k - f, f = counter + 1.
  double weight(std::uint64_t k, std::uint64_t counter) const {
    return static_cast<double>(period_ + (k - counter - 1));
  }

  template <class Stream>
  std::uint64_t pick_next_sampling_point(std::span<Stream> lanes, std::size_t t) {
    if (period_ == 1) return 0;
    const double mean = static_cast<double>(period_);
    const std::int64_t interval =
        faithful_ ? lcg_[t].interval(mean)
                  : tcmalloc_truncate_interval(exponential_from_uniform(lanes[t].next_uniform(), mean));
    return interval > 1 ? static_cast<std::uint64_t>(interval - 1) : 0;
  }

  std::uint64_t period_;
  bool faithful_;
  std::vector<std::uint64_t> counter_;  // per thread: bytes that pass before the sampled one
  std::vector<TcmallocLcg48> lcg_;      // per thread, faithful mode only
};

SchemeDescriptor tcmalloc_scheme();

}  // namespace allocsim
