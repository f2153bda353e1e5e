#pragma once
// `scalene`: Scalene's memory sampling (plasma-umass/scalene 9069a32:
// src/include/thresholdsampler.hpp ThresholdSampler, the default -- sampleheap.hpp
// selects it, its PoissonSampler is under #if 0; src/include/sampleheap.hpp
// register_malloc / register_free / process_free; scalene/scalene_memory_profiler.py
// process_malloc_free_samples; scalene/scalene_json.py for what a line reports).
//
// Each thread's heap (HL::ThreadSpecificHeap, src/source/libscalene.cpp) holds one
// ThresholdSampler with window W (SCALENE_ALLOCATION_SAMPLING_WINDOW, default
// allocation_sampling_window: 1048576 in scalene/scalene_arguments.py) and two
// counters, increments I and decrements D since the last sample:
//   malloc(s): I += s; if I >= D + W: sample +(I - D) ("M" record), I = D = 0;
//   free(s):   D += s; if D >= I + W: sample -(D - I) ("F" record), I = D = 0.
// s is the allocator's size of the object (SuperHeap::getSize, or the size in the
// ScaleneHeader of a Python object). A sample is a record of its value, attributed
// to the Python line running when it fired (whereInPython): the line whose malloc or
// free crossed the threshold, whoever allocated the bytes it carries. The records
// sum, signed, to the net growth of the heap (less what the counters hold at the
// end: under W per thread), but their attribution follows the trigger.
//
// Per line Scalene reports n_malloc_mb, the sum of the line's malloc records
// ("Total volume of memory allocated", scalene_json.py), and a footprint, its malloc
// minus its free records. Estimators, per group (a stack stands for a line):
//   bytes:     the values of the malloc samples its allocations fired (n_malloc_mb),
//              against its allocated bytes;
//   net_bytes: those less the values of the free samples its allocations' frees
//              fired, against its net growth: allocated bytes never freed in the
//              trace (Quantity::net_allocated_bytes). Read it in the "allocated"
//              window: a live_ window drops the samples of freed allocations.
// A free is taken to run on the allocating thread and line.
//
// Signature effect. A loop where line A allocates a bytes and frees them at once and
// line B allocates b bytes it keeps: A's malloc is checked first with the counters
// at x + a, x the net since the last sample, so A fires whenever x + a >= W, and
// A's free then leaves the counters at -a. With m = ceil(W/b) and
// r = W - (m - 1) b (0 < r <= b), the net growth b per iteration is attributed to
//   B alone                         if a < r,
//   A and B alternately             if r <= a <= b - r: B's share (m b - a)/((2m - 1) b),
//   A alone                         otherwise (every a >= b included),
// while A's true net growth is 0 (scalene_test.cpp derives and checks the cases).
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

inline constexpr std::uint64_t kScaleneWindow = 1048576;

// thresholdsampler.hpp's ThresholdSampler: increment/decrement return the value of
// the sample they fire, 0 when none (a sample carries at least W >= 1 bytes).
class ScaleneThreshold {
 public:
  explicit ScaleneThreshold(std::uint64_t window) : window_(window) {}

  std::uint64_t increment(std::uint64_t size) {
    increments_ += size;
    if (increments_ < decrements_ + window_) return 0;
    const std::uint64_t value = increments_ - decrements_;
    increments_ = decrements_ = 0;
    return value;
  }
  std::uint64_t decrement(std::uint64_t size) {
    decrements_ += size;
    if (decrements_ < increments_ + window_) return 0;
    const std::uint64_t value = decrements_ - increments_;
    increments_ = decrements_ = 0;
    return value;
  }

 private:
  std::uint64_t window_;
  std::uint64_t increments_ = 0, decrements_ = 0;
};

// The trace's allocations and frees merged in time order, each entry an allocation
// index with kScaleneFree set for its free. A free stamped t comes before the
// allocations stamped t, except the allocation it frees (lifetime 0): a loop that
// frees and allocates in one tick does not grow.
inline constexpr std::uint64_t kScaleneFree = std::uint64_t{1} << 63;
std::vector<std::uint64_t> scalene_event_order(const Trace& trace);

class ScaleneSampler {
 public:
  ScaleneSampler(std::uint64_t window, std::shared_ptr<const std::vector<std::uint64_t>> events)
      : window_(window), events_(std::move(events)) {}

  // Deterministic: the lanes are not read. Observations in event order, weight +V
  // for a malloc sample and -V for a free sample, on the allocation concerned.
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> /*lanes*/, std::vector<Observation>& out) {
    samplers_.assign(trace.thread_count, ScaleneThreshold(window_));
    for (const std::uint64_t entry : *events_) {
      const std::uint64_t i = entry & ~kScaleneFree;
      ScaleneThreshold& sampler = samplers_[trace.thread[i]];
      const std::uint64_t size = trace.allocated_size(i);
      if ((entry & kScaleneFree) == 0) {
        if (const std::uint64_t value = sampler.increment(size)) out.push_back({i, 1, 0, static_cast<double>(value)});
      } else if (const std::uint64_t value = sampler.decrement(size)) {
        out.push_back({i, 1, 0, -static_cast<double>(value)});
      }
    }
  }

 private:
  std::uint64_t window_;
  std::shared_ptr<const std::vector<std::uint64_t>> events_;
  std::vector<ScaleneThreshold> samplers_;  // per thread
};

SchemeDescriptor scalene_scheme();

}  // namespace allocsim
