#pragma once
// `jemalloc`: jemalloc's heap-profiling sampler as its code does it (src/prof.c
// prof_sample_new_event_wait, src/thread_event.c, src/prof_data.c
// prof_unbias_map_init; jemalloc/jemalloc 295e489), the model of
// doc_internal/PROFILING_INTERNALS.md.
//
// Each thread counts down a wait W = floor(ln u / ln(1 - 1/R)) + 1, a geometric on
// {1, 2, ...} with p = 1/R, over the usable (size-class) sizes Z of its allocations
// (jemalloc_size_classes.h). The allocation whose Z reaches the wait is sampled; the
// leftover is discarded and a fresh wait starts after it. By memorylessness this is
// exactly "each byte a Bernoulli(1/R) trial, stop at an allocation's first success"
// (countdown_discard.h):
// allocations are sampled independently with pi(Z) = 1 - (1 - 1/R)^Z, at most once.
//
// Estimators (per sampled allocation, from its size class Z):
//   bytes: Z / (1 - e^(-Z/R)), rounded to an integer per size class (prof_unbiased_sz);
//   count: round(8 / (1 - e^(-Z/R))) / 8 (prof_shifted_unbiased_cnt, counts kept in
//          eighths);
//   bytes_sum_then_unbias: what jeprof / pprof do with raw (prof_unbias:false) dumps:
//          sum a group's sampled bytes S and samples C, then scale by
//          1 / (1 - e^(-(S/C)/R)), using the group's average sampled size
//          (PROFILING_INTERNALS.md "Aggregation must be done after unbiasing samples").
// The weight uses e^(-Z/R) while the sampler's pi is 1 - (1 - 1/R)^Z, which is
// e^(-Z/R) (1 - Z/(2R^2) + ...) short of 1: the unrounded weight's relative bias is
// pi / (1 - e^(-Z/R)) - 1 ~ (1/(2R)) (Z/R) / (e^(Z/R) - 1), at most +1/(2R) (small Z;
// +9.5e-7 at R = 2^19). The integer rounding adds at most 0.5 byte per sample, and
// the eighths of the count up to 1/16 per sample (+2.7% for Z = R). All of it is in
// the per-allocation theory: bias_i = pi_i w_i - truth_i, Var_i = w_i^2 pi_i (1 - pi_i).
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/families/countdown_discard.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/jemalloc/jemalloc_size_classes.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

class JemallocSampler {
 public:
  JemallocSampler(const Trace& trace, double rate) : trials_(1.0 / rate) {
    usable_.reserve(trace.size());
    for (std::size_t i = 0; i < trace.size(); ++i) usable_.push_back(jemalloc_usable_size(trace.requested[i]));
  }

  // Each thread's usable sizes with prefix sums, for replay_skip_ahead.
  static CountedStreams usable_streams(const Trace& trace, const ThreadIndex& index) {
    const SizeColumn& requested = trace.requested;
    return CountedStreams::per_thread(index,
                                      [&requested](std::uint64_t i) { return jemalloc_usable_size(requested[i]); });
  }
  // For replay_skip_ahead only: `usable` is usable_streams(trace, index).
  JemallocSampler(double rate, std::shared_ptr<const CountedStreams> usable)
      : trials_(1.0 / rate), usable_streams_(std::move(usable)) {}

  // The same waits seen from the sampled bytes: a wait of W usable bytes starting
  // at byte position b of the thread's stream samples the allocation holding byte
  // b + W - 1, and the next wait starts after that allocation. Draws come from the
  // same lane in the same order as replay(): identical observations, thread by
  // thread.
  template <class Stream>
  void replay_skip_ahead(const Trace& /*trace*/, const ThreadIndex& /*index*/, std::span<Stream> lanes,
                         std::vector<Observation>& out) const {
    per_thread_first_success_skip_ahead(*usable_streams_,
                                        Waits<Stream, const std::uint32_t*>{trials_, nullptr, lanes, out});
  }

  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    read_unescaped(usable_, [&](const auto& usable) {
      per_thread_first_success(trace, failures_, Waits<Stream, decltype(usable)>{trials_, usable, lanes, out});
    });
  }

 private:
  // jemalloc's countdown: each thread waits W usable bytes, W geometric with
  // p = 1/R; the allocation holding byte W is sampled and a fresh wait drawn.
  // `Sizes` reads the usable sizes (read_unescaped: their bare 32-bit codes, or the
  // column).
  template <class Stream, class Sizes>
  struct Waits {
    const GeometricTrials& trials;
    Sizes usable;  // per allocation (streaming only)
    std::span<Stream> lanes;
    std::vector<Observation>& out;

    std::uint64_t units(std::size_t i) const { return usable[i]; }
    void record(std::size_t i, std::uint64_t, std::uint64_t offset) { out.push_back({i, 1, offset, 0.0}); }
    // The wait W (bytes up to and including the sampled one) less one.
    std::uint64_t redraw(std::size_t t) { return trials(lanes[t].next_uniform()) - 1; }
  };

  GeometricTrials trials_;               // p = 1/rate
  SizeColumn usable_;                    // jemalloc_usable_size of each allocation, 32 bits unless it escapes
                                         // (the replay reads it for every event: half the bytes of 64)
  std::vector<std::uint64_t> failures_;  // per thread: bytes that pass before the sampled one
  std::shared_ptr<const CountedStreams> usable_streams_;  // skip-ahead only
};

SchemeDescriptor jemalloc_scheme();
// Its conformance driver: the real jemalloc (jemalloc_driver.cpp).
ConformanceSystem jemalloc_driver();

}  // namespace allocsim
