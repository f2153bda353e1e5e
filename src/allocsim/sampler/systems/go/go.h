#pragma once
// `go`: the Go 1.19 runtime's heap-profile sampler (runtime.MemProfileRate) and
// pprof's scaleHeapSample, as the code does them (golang/go src/runtime/malloc.go
// mallocgc / nextSample / fastexprand / profilealloc, mprof.go stkbucket,
// runtime/pprof/protomem.go scaleHeapSample; Go 1.19).
//
// Each P (here: each traced thread) keeps c.nextSample, the 1-based position of the
// next sample point, drawn as fastexprand(MemProfileRate) = floor(~Exp(R)) + 1
// (go_random.h). An allocation is counted with its slot size u (go_size_classes.h):
// if u < nextSample it only decrements, otherwise it is sampled and nextSample is
// redrawn (the leftover discarded, countdown_discard.h). Since floor(E) + 1 seen from any byte is again
// floor(E) + 1 (memorylessness), every allocation is sampled independently with
//   pi = P(floor(E) + 1 <= u) = P(E < u) = 1 - e^(-u/R)
// exactly for an exponential E; the 26-bit quantisation and the table log2 change
// it by O(1e-4) relative.
//   Size 0 returns the zero base and is never counted. Option tiny: allocations of
//   1..15 bytes are pointer-free and go through the tiny allocator (per P): one that
//   fits into the current 16-byte block (after alignment to 8, 4 or 2 when its size
//   is a multiple of it) returns early, never counted; otherwise a new block opens,
//   counted as u = 16 and attributed to the opening allocation, and it becomes the
//   current block if it has more room left than the old one.
//   Option bypass "rate" (Go <= 1.11, issue 26618): u >= R is always sampled (and
//   the counter redrawn) while pprof still scales it by 1 / (1 - e^(-u/R)).
// Records are keyed by (stack, size), so each is homogeneous and
// scaleHeapSample(count, bytes, R) = int64(count / (1 - e^(-avg/R))),
// int64(bytes / ...) with avg = bytes / count = u is Horvitz-Thompson per record.
// Estimators:
//   bytes, count: u / (1 - e^(-u/R)) and 1 / (1 - e^(-u/R)) per sample, unrounded
//     (exact per-allocation theory: unbiased unless tiny or bypass);
//   bytes_merged, count_merged: scaleHeapSample on the group's summed raw (count,
//     bytes), truncated to int64 -- the profile's own numbers when a group is one
//     (stack, size) record, "merge records, then scale" when it mixes sizes;
//   with periods = k > 1, bytes_delta_then_scale, count_delta_then_scale: the trace's
//     time split into k equal spans, each span's raw delta scaled (with truncation)
//     and the k results summed -- what a continuous profiler that differences raw
//     cumulative profiles and then scales reports over the whole run. Scaling the
//     cumulative profiles first and differencing telescopes to the merged estimate.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/families/countdown_discard.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/go/go_random.h"
#include "allocsim/sampler/systems/go/go_size_classes.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

// The runtime's defaults, which are the scheme's (its descriptor reads them here).
struct GoConfig {
  double rate = 524288;       // MemProfileRate R (1: every allocation; runtime/mprof.go)
  bool faithful = true;       // the runtime's wyrand / fastlog2 draw; false: ideal exponential
  bool tiny = false;          // 1..15-byte allocations go through the tiny allocator
  bool bypass = false;        // Go <= 1.11: u >= R always sampled
  std::uint32_t periods = 1;  // > 1: continuous-profiling deltas over this many equal time spans
};
inline constexpr GoConfig kGoDefaults{};

// The tiny allocator's state of one P, and what it makes the profiler count for an
// allocation of s bytes: 0 when it fits into the current block, 16 when it opens one.
struct GoTinyBlock {
  std::uint64_t offset = 0;
  bool open = false;

  std::uint64_t counted(std::uint64_t s) {
    std::uint64_t off = offset;
    if (s % 8 == 0) {
      off = (off + 7) / 8 * 8;
    } else if (s % 4 == 0) {
      off = (off + 3) / 4 * 4;
    } else if (s % 2 == 0) {
      off = (off + 1) / 2 * 2;
    }
    if (open && off + s <= kGoTinySize) {
      offset = off + s;
      return 0;
    }
    if (!open || s < offset) {
      open = true;
      offset = s;
    }
    return kGoTinySize;
  }
};

// The bytes the profiler counts for allocation i (0: never counted), each thread's
// allocations visited in trace order; `blocks` holds each thread's tiny block
// (thread_count entries, default-constructed before the thread's first allocation).
std::uint64_t go_counted_size(const Trace& trace, std::size_t i, bool tiny, std::vector<GoTinyBlock>& blocks);

class GoSampler {
 public:
  explicit GoSampler(const GoConfig& config) : config_(config) {}
  // For replay_skip_ahead only (no bypass, rate > 1): `counted` holds each thread's
  // counted sizes, CountedStreams::per_thread over go_counted_sizes.
  GoSampler(const GoConfig& config, std::shared_ptr<const CountedStreams> counted)
      : config_(config), counted_(std::move(counted)) {}

  // The same countdown seen from the sample points: nextSample = G puts the point at
  // counted byte G - 1 after the current start; the slot holding it is sampled and
  // the next draw counts from its end. Lanes seeded and drawn in the same order as
  // replay(): identical observations, thread by thread.
  template <class Stream>
  void replay_skip_ahead(const Trace& /*trace*/, const ThreadIndex& /*index*/, std::span<Stream> lanes,
                         std::vector<Observation>& out) {
    seed(lanes);
    per_thread_first_success_skip_ahead(*counted_, Samples<Stream>{*this, nullptr, lanes, out});
  }

  // Observation: offset = the sample point's 0-based offset in the counted u bytes,
  // weight = u.
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    tiny_.assign(lanes.size(), GoTinyBlock{});
    seed(lanes);
    per_thread_first_success(trace, failures_, Samples<Stream>{*this, &trace, lanes, out});
  }

 private:
  // Go's countdown: each P's nextSample over the bytes its allocations count (the
  // size class's slot, or the tiny block's new bytes); the allocation that crosses
  // it is recorded with its counted size, and a fresh nextSample drawn. With the
  // rate bypass, an allocation of at least the rate is recorded whole.
  template <class Stream>
  struct Samples {
    GoSampler& sampler;
    const Trace* trace;  // streaming only
    std::span<Stream> lanes;
    std::vector<Observation>& out;

    std::uint64_t units(std::size_t i) const {
      const std::uint64_t s = trace->requested[i];
      if (s == 0) return 0;
      const GoConfig& config = sampler.config_;
      return config.tiny && s < kGoTinySize ? sampler.tiny_[trace->thread[i]].counted(s) : go_slot_size(s);
    }
    bool passes_through(std::size_t, std::uint64_t u) const {
      return u != 0 && sampler.config_.bypass && static_cast<double>(u) >= sampler.config_.rate;
    }
    void record_whole(std::size_t i, std::uint64_t u) { out.push_back({i, 1, 0, static_cast<double>(u)}); }
    void record(std::size_t i, std::uint64_t u, std::uint64_t offset) {
      out.push_back({i, 1, offset, static_cast<double>(u)});
    }
    std::uint64_t redraw(std::size_t t) { return sampler.draw_failures(lanes, t); }
  };

  // Each P's fastrand state from its lane (faithful only).
  template <class Stream>
  void seed(std::span<Stream> lanes) {
    rng_.resize(lanes.size());
    if (!config_.faithful) return;
    for (std::size_t t = 0; t < lanes.size(); ++t) rng_[t] = lanes[t].next_u64();
  }

  // nextSample less one: the bytes that pass before the sample point (0 when
  // nextSample is 0, rate 1: every counted allocation is sampled at offset 0).
  template <class Stream>
  std::uint64_t draw_failures(std::span<Stream> lanes, std::size_t t) {
    const std::uint64_t next = next_sample(lanes, t);
    return next == 0 ? 0 : next - 1;
  }

  template <class Stream>
  std::uint64_t next_sample(std::span<Stream> lanes, std::size_t t) {
    if (config_.rate == 1) return 0;
    if (config_.faithful) {
      const std::uint32_t q = go_fastrandn(go_wyrand_next(rng_[t]), 1u << 26) + 1;
      return static_cast<std::uint64_t>(go_exprand_from_q(q, config_.rate));
    }
    const double mean = config_.rate > kGoMaxMean ? kGoMaxMean : config_.rate;
    return static_cast<std::uint64_t>(exponential_from_uniform(lanes[t].next_uniform(), mean)) + 1;
  }

  GoConfig config_;
  std::vector<std::uint64_t> failures_;            // per P: c.nextSample - 1
  std::vector<std::uint64_t> rng_;                 // per P: the M's fastrand state (faithful only)
  std::vector<GoTinyBlock> tiny_;                  // per P: the tiny block
  std::shared_ptr<const CountedStreams> counted_;  // skip-ahead only
};

SchemeDescriptor go_scheme();
// Its conformance driver: the Go runtime (go_driver.cpp).
ConformanceSystem go_driver();

}  // namespace allocsim
