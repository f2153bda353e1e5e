#pragma once
// `jvm`: HotSpot's JEP 331 heap sampler (JVMTI SampledObjectAlloc,
// SetHeapSamplingInterval) as its code does it (openjdk/jdk
// src/hotspot/share/runtime/threadHeapSampler.cpp, JDK 13 and later).
//
// Each thread keeps _bytes_until_sample. check_for_sampling(obj, size, since) adds
// the object's size (here: the trace's size rounded up to 8, MinObjAlignmentInBytes)
// to the TLAB bytes allocated since the last check; the TLAB end is placed at the
// sample point, so this is a countdown over every object's bytes (countdown_discard.h): if the total is
// below _bytes_until_sample it is subtracted, otherwise the object is sampled and a
// fresh interval is drawn (the overflow is passed to pick_next_sample and ignored;
// JDK 11 still subtracted it when smaller than the new interval).
//   Interval: _rnd = lrand64 step (48-bit LCG, tcmalloc's constants), q = top 26 bits
//   + 1, log_val = min(0, fast_log2(q) - 26), size_t(log_val * (-ln 2 T) + 1), where
//   fast_log2 is the exponent plus a 1024-entry table log2(1 + (i + 0.5)/1024) on the
//   top 10 mantissa bits. _rnd is one static for all threads; each new thread's
//   sampler re-seeds it with its own address (uint32) and draws its first interval.
//   T = 0 samples every object.
// The interval is floor(X) + 1 of a (near-)exponential X, so as for Go an object of u
// bytes is sampled independently with pi = P(X < u) = 1 - e^(-u/T) (exactly for an
// exponential X; the table log changes it by O(1e-4) relative).
// With `tlab` set (jvm_tlab.h) the sampler is driven through HotSpot's TLAB paths
// instead: which object is reported then depends on TLAB refills and outside-TLAB
// allocations, and inclusions are no longer independent (no closed form).
// The JVM reports (object, class, size) only. Estimators:
//   bytes, count: what agents compute, u / (1 - e^(-u/T)) and 1 / (1 - e^(-u/T))
//     (e.g. cloud-profiler-java UnSample): unbiased;
//   bytes_since_last: the bytes the thread allocated since its previous sample,
//     including this object (the weight of JFR's jdk.ObjectAllocationSample and of
//     dd-trace-py): the total is right up to the tail after the last sample, but it
//     moves credit from the allocations before a sample to the sampled one.
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/families/countdown_discard.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/jvm/jvm_tlab.h"
#include "allocsim/sampler/systems/tcmalloc/tcmalloc_random.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

inline std::uint64_t jvm_object_size(std::uint64_t size) { return (size + 7) / 8 * 8; }

// ThreadHeapSampler::fast_log2: the exponent plus log_table[top 10 mantissa bits],
// log_table[i] = log2(1 + (i + 0.5) / 1024).
inline double jvm_fast_log2(double d) {
  static const std::array<double, 1024> table = [] {
    std::array<double, 1024> t{};
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = std::log2(1.0 + (static_cast<double>(i) + 0.5) / 1024);
    return t;
  }();
  const auto high = static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(d) >> 32);
  const std::uint32_t y = (high >> (20 - 10)) & 1023;
  const std::int32_t exponent = static_cast<std::int32_t>((high >> 20) & 0x7FF) - 1023;
  return exponent + table[y];
}

// The interval for the 26-bit draw q in {1, ..., 2^26}.
inline std::uint64_t jvm_interval_from_q(double q, double interval) {
  const double log_val = jvm_fast_log2(q) - 26;
  return static_cast<std::uint64_t>((0.0 < log_val ? 0.0 : log_val) * (-std::log(2.0) * interval) + 1);
}

// pick_next_geometric_sample: steps `state` and returns the next interval.
inline std::uint64_t jvm_next_interval(std::uint64_t& state, double interval) {
  state = TcmallocLcg48::next(state);
  return jvm_interval_from_q(static_cast<std::uint32_t>(state >> (48 - 26)) + 1.0, interval);
}

class JvmSampler {
 public:
  JvmSampler(double interval, bool faithful, const JvmTlabConfig& tlab = {})
      : interval_(interval), faithful_(faithful), tlab_(tlab) {}
  // Each thread's object sizes with prefix sums, for replay_skip_ahead.
  static CountedStreams object_streams(const Trace& trace, const ThreadIndex& index) {
    const SizeColumn& requested = trace.requested;
    return CountedStreams::per_thread(index, [&requested](std::uint64_t i) { return jvm_object_size(requested[i]); });
  }
  // For replay_skip_ahead only (per-thread draws: ideal, or a single thread; T > 0):
  // `sizes` is object_streams(trace, index).
  JvmSampler(double interval, bool faithful, std::shared_ptr<const CountedStreams> sizes)
      : interval_(interval), faithful_(faithful), sizes_(std::move(sizes)) {}

  // The countdown seen from the sample points: an interval G puts the point at byte
  // G - 1 after the current start; the object holding it is sampled, its weight the
  // bytes from the previous sampled object's end to its own end. Same draws in the
  // same order as replay(), then up to kFirstSuccessDrawsAhead - 1 more at each
  // thread's end: identical observations, thread by thread. Each thread gets a
  // fresh Intervals, so its queue of waits starts empty.
  template <class Stream>
  void replay_skip_ahead(const Trace& /*trace*/, const ThreadIndex& /*index*/, std::span<Stream> lanes,
                         std::vector<Observation>& out) {
    const CountedStreams& streams = *sizes_;
    for (std::uint32_t t = 0; t < streams.stream_count(); ++t) {
      if (faithful_) seed_shared_state(lanes[t]);
      Intervals<Stream> intervals{*this, nullptr, lanes, out};
      first_success_skip_ahead(streams, t, intervals);
    }
  }

  // Observation: offset = the sample point's 0-based offset in the object's u bytes
  // (0 in the TLAB model, which places no point inside the object),
  // weight = the thread's bytes since its previous sample, this object included.
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    until_.resize(lanes.size());
    since_.assign(lanes.size(), 0);
    for (std::size_t t = 0; t < lanes.size(); ++t) {
      if (faithful_) seed_shared_state(lanes[t]);
      until_[t] = next_interval(lanes[t]);
    }
    if (tlab_.enabled()) {
      replay_tlab(trace, lanes, out);
      return;
    }
    for (std::uint64_t& until : until_) until = failures_of(until);
    const ThreadColumn& thread = trace.thread;
    Intervals<Stream> intervals{*this, &trace, lanes, out};
    first_success_replay(
        trace.size(), std::span<std::uint64_t>(until_), [&](std::size_t i) { return thread[i]; }, intervals);
  }

 private:
  // HotSpot's countdown (ThreadHeapSampler): each thread's _bytes_until_sample over
  // its objects' sizes; the object that reaches it is sampled, weighted by the
  // thread's bytes since its previous sample, and a fresh interval drawn.
  template <class Stream>
  struct Intervals {
    JvmSampler& sampler;
    const Trace* trace;  // streaming only
    std::span<Stream> lanes;
    std::vector<Observation>& out;
    // Skip-ahead: the failures of the waits drawn and not yet recorded, first in
    // first out (first_success_skip_ahead draws up to kFirstSuccessDrawsAhead ahead).
    std::array<std::uint64_t, kFirstSuccessDrawsAhead> waits{};
    std::size_t drawn = 0, recorded = 0;

    std::uint64_t units(std::size_t i) const {
      const std::uint64_t u = jvm_object_size(trace->requested[i]);
      sampler.since_[trace->thread[i]] += u;
      // T = 0 samples every object, an empty one too: it counts one byte against
      // the budget of 0.
      return sampler.interval_ == 0 && u == 0 ? 1 : u;
    }
    // Streaming: the weight is the thread's running count. Skip-ahead sees only
    // the draws: from the end of the previous sampled object to the end of this one
    // lie the wait's failures, then the object's bytes from the sampled one on.
    void record(std::size_t i, std::uint64_t u, std::uint64_t offset) {
      if (trace == nullptr) {
        const std::uint64_t failures = waits[recorded++ % waits.size()];
        out.push_back({i, 1, offset, static_cast<double>(failures + u - offset)});
        return;
      }
      std::uint64_t& since = sampler.since_[trace->thread[i]];
      out.push_back({i, 1, offset, static_cast<double>(since)});
      since = 0;
    }
    std::uint64_t redraw(std::size_t t) {
      const std::uint64_t failures = failures_of(sampler.next_interval(lanes[t]));
      waits[drawn++ % waits.size()] = failures;
      return failures;
    }
  };

  // The new thread's address seeds the shared state (faithful only).
  template <class Stream>
  void seed_shared_state(Stream& lane) {
    const auto address = static_cast<std::uint32_t>(lane.next_u64());
    shared_state_ = address == 0 ? 1 : address;
  }

  // Through the TLAB paths (jvm_tlab.h); each thread's first interval is until_[t].
  template <class Stream>
  void replay_tlab(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    threads_.clear();
    JvmHeap heap(tlab_);
    for (std::size_t t = 0; t < lanes.size(); ++t)
      threads_.emplace_back(tlab_, until_[t], t == 0 ? tlab_.initial : 0, tlab_.initial_armed);
    const SizeColumn& requested = trace.requested;
    const ThreadColumn& thread = trace.thread;
    const std::size_t n = trace.size();
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t u = jvm_object_size(requested[i]);
      const std::uint32_t t = thread[i];
      since_[t] += u;
      if (!threads_[t].allocate(tlab_, heap, u, [&] { return next_interval(lanes[t]); })) continue;
      out.push_back({i, 1, 0, static_cast<double>(since_[t])});
      since_[t] = 0;
    }
  }

  // _bytes_until_sample = G puts the sample point at byte G - 1 (0 when G = 0: T = 0).
  static std::uint64_t failures_of(std::uint64_t until) { return until == 0 ? 0 : until - 1; }

  template <class Stream>
  std::uint64_t next_interval(Stream& lane) {
    if (interval_ == 0) return 0;
    if (faithful_) return jvm_next_interval(shared_state_, interval_);
    return static_cast<std::uint64_t>(exponential_from_uniform(lane.next_uniform(), interval_)) + 1;
  }

  double interval_;
  bool faithful_;
  std::uint64_t shared_state_ = 0;               // ThreadHeapSampler::_rnd (faithful only)
  std::vector<std::uint64_t> until_;             // per thread: _bytes_until_sample (less one in the countdown)
  std::vector<std::uint64_t> since_;             // per thread: bytes since its previous sample
  JvmTlabConfig tlab_;                           // TLAB model; off by default
  std::vector<JvmTlabThread> threads_;           // per thread, TLAB model only
  std::shared_ptr<const CountedStreams> sizes_;  // skip-ahead only
};

SchemeDescriptor jvm_scheme();
// Its conformance drivers: the JVM under G1 and under the serial collector (jvm_driver.cpp).
std::vector<ConformanceSystem> jvm_drivers();

}  // namespace allocsim
