#pragma once
// `gperftools`: the sampler of gperftools' tcmalloc (2.10; src/sampler.h,
// src/sampler.cc, src/tcmalloc.cc do_malloc / do_malloc_pages / DoSampledAllocation),
// the older lineage that google/tcmalloc (`tcmalloc`) grew out of. Its differences
// from `tcmalloc`:
//   - the counter counts the size-class size k = a of small requests (do_malloc passes
//     class_to_size(cl)) and the requested size k = r above kMaxSize = 256 KiB
//     (do_malloc_pages), not r + 1;
//   - the counter is the draw itself, trunc(-T ln(q / 2^26)) with no -1 offset, and an
//     allocation is sampled iff counter < k (RecordAllocation: "on the (X+1)th byte");
//   - a sample carries no weight: the heap sample (MallocExtension::GetHeapSample) lists
//     each live sampled object as a line of its own, "1: r [...] @ pcs", and pprof scales
//     each line by 1 / (1 - e^(-(bytes/count)/T)) before lines of one stack are summed
//     (google/pprof profile/legacy_profile.go, parseHeap and scaleHeapSample), so each
//     sampled object is scaled by 1 / (1 - e^(-r/T)) of its own requested size r.
// The counter is a floored exponential (memoryless up to the 26-bit quantisation), and
// the leftover is discarded after a sample (countdown_discard.h), so allocations are sampled independently
// with pi = P(E < k) = 1 - e^(-k/T). pprof divides by 1 - e^(-r/T) instead: for a small
// request in a larger size class the estimate is high by (1 - e^(-a/T)) / (1 - e^(-r/T))
// ~ a / r (e.g. +33% for 24-byte requests in the 32-byte class).
//
// Start-up: the flag FLAGS_tcmalloc_sample_parameter is read from the environment by a
// static initialiser of libtcmalloc, which runs after the first malloc of the process
// (libstdc++'s start-up allocations). The main thread's sampler is initialised in that
// first malloc, while the flag is still 0, so PickNextSamplingPoint returns its "off"
// value 16 MiB: nothing is sampled in the main thread's first 16 MiB, and the
// allocation that crosses it is sampled (RecordAllocationSlow then returns "sample").
// Option startup_counter sets thread 0's first counter (16 MiB by default; 0 = a
// fresh draw, what later threads get).
//
// Size classes: gperftools' table is not built in; a trace's allocated column (what
// the conformance driver records from tc_nallocx) supplies a, and without it a = r.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/families/countdown_discard.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/tcmalloc/tcmalloc_random.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

// kMaxSize of gperftools 2.10 (common.h): larger requests go to the page heap.
inline constexpr std::uint64_t kGperftoolsMaxSize = 256 * 1024;
// The main thread's first counter: the 16 MiB "off" interval (sampler.cc).
inline constexpr std::uint64_t kGperftoolsStartupCounter = std::uint64_t{16} << 20;

// The bytes gperftools' sampler counts for allocation i.
inline std::uint64_t gperftools_counted_size(const Trace& trace, std::size_t i) {
  const std::uint64_t r = trace.requested[i];
  return r <= kGperftoolsMaxSize ? trace.allocated_size(i) : r;
}

class GperftoolsSampler {
 public:
  // faithful: the 48-bit LCG (seeded per thread from its lane, as gperftools seeds
  // from the sampler's address, stepped 20 times) with the 26-bit quantised log;
  // otherwise an ideal exponential from the lane's uniforms, truncated.
  GperftoolsSampler(const Trace& trace, std::uint64_t period, bool faithful, std::uint64_t startup_counter)
      : period_(period), faithful_(faithful), startup_counter_(startup_counter), counted_(trace.size()) {
    for (std::size_t i = 0; i < trace.size(); ++i) counted_[i] = gperftools_counted_size(trace, i);
  }

  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    lcg_.clear();
    if (faithful_) {
      for (auto& lane : lanes) lcg_.emplace_back(lane.next_u64() | 1);  // Init asserts seed != 0
    }
    per_thread_first_success(trace, counter_, Counters<Stream>{*this, startup_counter_, lanes, out});
  }

 private:
  // gperftools' countdown: each thread's bytes_until_sample over its counted sizes;
  // the allocation that crosses it is sampled and a fresh point picked.
  template <class Stream>
  struct Counters {
    GperftoolsSampler& sampler;
    std::uint64_t startup;  // thread 0's first counter; 0: a draw
    std::span<Stream> lanes;
    std::vector<Observation>& out;

    std::uint64_t units(std::size_t i) const { return sampler.counted_[i]; }
    // Byte counter + 1 of the allocation is the sampled one.
    void record(std::size_t i, std::uint64_t, std::uint64_t counter) { out.push_back({i, 1, counter, 0.0}); }
    // Thread 0 starts from the "off" value without a draw (PickNextSamplingPoint
    // returns before stepping the generator); its first redraw is that start.
    std::uint64_t redraw(std::size_t t) {
      if (t == 0 && startup > 0) return std::exchange(startup, 0);
      return sampler.pick_next_sampling_point(lanes, t);
    }
  };

  template <class Stream>
  std::uint64_t pick_next_sampling_point(std::span<Stream> lanes, std::size_t t) {
    const double mean = static_cast<double>(period_);
    const std::int64_t interval =
        faithful_ ? lcg_[t].interval(mean)
                  : tcmalloc_truncate_interval(exponential_from_uniform(lanes[t].next_uniform(), mean));
    return static_cast<std::uint64_t>(interval);
  }

  std::uint64_t period_;
  bool faithful_;
  std::uint64_t startup_counter_;       // thread 0's first counter; 0 = drawn
  std::vector<std::uint64_t> counted_;  // gperftools_counted_size of each allocation
  std::vector<std::uint64_t> counter_;  // per thread: bytes that pass before the sampled one
  std::vector<TcmallocLcg48> lcg_;      // per thread, faithful mode only
};

SchemeDescriptor gperftools_scheme();
// Its conformance driver: the real gperftools tcmalloc (gperftools_driver.cpp).
ConformanceSystem gperftools_driver();

}  // namespace allocsim
