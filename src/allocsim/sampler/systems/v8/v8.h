#pragma once
// `v8`: V8's SamplingHeapProfiler (v8 src/profiler/sampling-heap-profiler.cc).
//
// An allocation observer steps through the heap's allocated bytes: the step is
// trunc(-rate ln u) clamped to [kTaggedSize = 8, INT_MAX]; the object whose
// allocation reaches the step is sampled (SampleObject(soon_object, size)) and the
// next step starts afresh (leftover discarded, countdown_discard.h). Here: a per-thread counter c; an
// object of s bytes with s < c decrements it, otherwise it is sampled and c
// redrawn. (How V8's AllocationCounter handles the overshoot exactly is not
// verified; this is the first-success reading.)
// Inclusion: a fresh step floor(E) covers s bytes with 1 - e^(-(s+1)/T), a step
// already decremented by earlier objects (memorylessness) with 1 - e^(-s/T), so the
// theory pi = 1 - e^(-s/T) is right to O(1/T) relative.
// Samples are kept per allocation-tree node and exact size; ScaleSample unsamples a
// (node, size) entry as unsigned(count / (1 - e^(-size/rate)) + 0.5).
// Estimators:
//   bytes, count: s / (1 - e^(-s/T)) and 1 / (1 - e^(-s/T)) per sample, unrounded;
//   bytes_rounded, count_rounded: ScaleSample on the group's raw (count, bytes),
//     rounded half up, bytes = average size x count -- the profile's numbers when the
//     group is one (node, size) entry (+26 % at s = T, -13.5 % at s = 2T for one
//     allocation).
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/families/countdown_discard.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

// GetNextSampleInterval: trunc(-rate ln u) within [8, INT_MAX].
inline std::uint64_t v8_next_step(double u, double rate) {
  const double value = exponential_from_uniform(u, rate);
  if (value >= static_cast<double>(std::numeric_limits<std::int32_t>::max())) {
    return std::numeric_limits<std::int32_t>::max();
  }
  const auto step = static_cast<std::uint64_t>(value);
  return step < 8 ? 8 : step;
}

class V8Sampler {
 public:
  explicit V8Sampler(double rate) : rate_(rate) {}
  // For replay_skip_ahead only: `requested` is CountedStreams::requested(index).
  V8Sampler(double rate, std::shared_ptr<const CountedStreams> requested)
      : rate_(rate), requested_(std::move(requested)) {}

  // The steps seen from their end points: a step of c bytes ends at byte c - 1 after
  // the current start, the object holding it is sampled and the next step starts
  // after it. Same draws in the same order: identical observations, thread by thread.
  template <class Stream>
  void replay_skip_ahead(const Trace& /*trace*/, const ThreadIndex& /*index*/, std::span<Stream> lanes,
                         std::vector<Observation>& out) {
    per_thread_first_success_skip_ahead(*requested_, Steps<Stream>{rate_, nullptr, lanes, out});
  }

  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    per_thread_first_success(trace, failures_, Steps<Stream>{rate_, &trace.requested, lanes, out});
  }

 private:
  // V8's countdown: each thread's step over requested bytes; the object holding the
  // step's last byte is sampled and a fresh step drawn.
  template <class Stream>
  struct Steps {
    double rate;
    const SizeColumn* requested;  // streaming only
    std::span<Stream> lanes;
    std::vector<Observation>& out;

    std::uint64_t units(std::size_t i) const { return (*requested)[i]; }
    void record(std::size_t i, std::uint64_t, std::uint64_t offset) { out.push_back({i, 1, offset, 0.0}); }
    // A step of c >= 8 bytes: the c-th byte reaches it, c - 1 pass before.
    std::uint64_t redraw(std::size_t t) { return v8_next_step(lanes[t].next_uniform(), rate) - 1; }
  };

  double rate_;
  std::vector<std::uint64_t> failures_;              // per thread: bytes that pass before the next step ends
  std::shared_ptr<const CountedStreams> requested_;  // skip-ahead only
};

// ScaleSample on one (node, size) entry's raw (count, bytes): (rounded count, bytes).
std::pair<double, double> v8_scale_sample(double count, double bytes, double rate);

SchemeDescriptor v8_scheme();

}  // namespace allocsim
