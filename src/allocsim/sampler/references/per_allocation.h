#pragma once
// `per-allocation`: Bernoulli sampling of allocations. Each allocation, whatever its
// size, is sampled independently with probability 1/N; the sampler skips a
// geometric number of allocations on each thread, K = floor(ln u / ln(1 - 1/N)) + 1
// (random_transforms.h), so only sampled allocations cost a draw. It is the
// per-allocation alternative the per-byte designs (Perfetto
// docs/design-docs/heapprofd-sampling.md 'Conceptual motivation', Memray
// docs/sampling.rst 'Bernoulli process') argue against: every allocation is equally likely to
// be seen, so a large one is as easy to miss as a small one.
// Estimators (Horvitz-Thompson, unbiased): bytes = N s, count = N per sampled
// allocation; an allocation of Z bytes adds variance (N - 1) Z^2 to bytes and
// N - 1 to count.
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

class PerAllocationSampler {
 public:
  explicit PerAllocationSampler(double every) : every_(every), trials_(1.0 / every) {}

  // The same skips over each thread's event list: the sampled events are its
  // K1-th, (K1 + K2)-th, ... events, drawn from the same lane in the same order as
  // replay(). Identical observations, thread by thread.
  template <class Stream>
  void replay_skip_ahead(const Trace& trace, const ThreadIndex& index, std::span<Stream> lanes,
                         std::vector<Observation>& out) const {
    for (std::uint32_t t = 0; t < index.thread_count(); ++t) {
      const std::size_t n = index.size(t);
      std::size_t next = 0;  // first event of the current skip
      for (;;) {
        const std::uint64_t skip = draw_skip(lanes[t]);  // >= 1
        if (skip > n - next) break;
        const std::size_t k = next + (skip - 1);
        const std::uint64_t i = index.event(t, k);
        out.push_back({i, 1, 0, every_ * static_cast<double>(trace.requested[i])});
        next = k + 1;
      }
    }
  }

  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    // Allocations up to and including the next sampled one, per thread.
    remaining_.resize(lanes.size());
    for (std::size_t t = 0; t < lanes.size(); ++t) remaining_[t] = draw_skip(lanes[t]);
    const ThreadColumn& thread = trace.thread;
    const std::size_t n = trace.size();
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t& remaining = remaining_[thread[i]];
      if (--remaining != 0) continue;
      out.push_back({i, 1, 0, every_ * static_cast<double>(trace.requested[i])});
      remaining = draw_skip(lanes[thread[i]]);
    }
  }

 private:
  template <class Stream>
  std::uint64_t draw_skip(Stream& stream) const {
    return trials_(stream.next_uniform());
  }

  double every_;            // N
  GeometricTrials trials_;  // p = 1/N
  std::vector<std::uint64_t> remaining_;
};

SchemeDescriptor per_allocation_scheme();

}  // namespace allocsim
