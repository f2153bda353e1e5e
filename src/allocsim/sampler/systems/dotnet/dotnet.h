#pragma once
// `dotnet`: .NET's randomized allocation sampling (AllocationSampled events) as the
// runtime code does it (src/coreclr/vm/gcheaputilities.h ComputeGeometricRandom,
// SamplingDistributionMean = 102400), the model of
// docs/design/features/RandomizedAllocationSampling.md (Nasarre, Falk 2024).
//
// Conceptually every byte of every object is a Bernoulli(p = 1/102400) trial and an
// object is reported at its first success, with the 0-based offset of that byte.
// The runtime keeps per thread a budget of failed trials, floor(-ln(1 - u) * 102400),
// consumed by pointer-aligned object sizes s: an object is sampled iff budget < s,
// its offset is the budget, and a fresh budget is drawn after it (leftover trials are
// discarded, countdown_discard.h; by memorylessness objects are sampled independently with
// pi(s) = 1 - (1 - p')^s, p' = 1 - e^(-1/T) for the code's draw, p for the document's).
//
// Estimators, q = 1 - p (the document's):
//   bytes    (estimator 1, Horvitz-Thompson): s / (1 - q^s) per sampled object;
//            Var per object s^2 q^s / (1 - q^s), in total at most N q/p for N bytes.
//   bytes_nb (estimator 2, failed trials): s q/p + u, u = sum (s_i - offset_i): linear,
//            q/p + s - offset per sampled object. With O ~ failures before a success,
//            X = (q/p + s - O) 1{O < s} has E[X] = s and Var = (q/p^2)(1 - q^s)
//            (E[g(O) 1{O < s}] = E[g(O)] - q^s E[g(O + s)], memorylessness).
//   count:   1 / (1 - q^s) per sampled object.
// Under the code's draw (per-byte miss e^(-1/T) instead of q) the same identities give
// bias delta * pi per object for bytes_nb, delta = (T - 1) - 1/(e^(1/T) - 1) ~ -1/2, and
// a relative bias of at most ~1/(2T) for bytes and count: all in the theory.
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/random/random_transforms.h"
#include "allocsim/sampler/families/countdown_discard.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

// The runtime's SamplingDistributionMean: a constant, in bytes.
inline constexpr std::uint64_t kDotnetSamplingMean = 102400;

// The object size the runtime reports: the request rounded up to the pointer size.
inline std::uint64_t dotnet_object_size(std::uint64_t requested, std::uint64_t pointer_size) {
  return (requested + pointer_size - 1) & ~(pointer_size - 1);
}

class DotnetSampler {
 public:
  // document_draw: floor(ln(1 - u) / ln(1 - p)), the document's exact geometric;
  // otherwise the code's floor(-ln(1 - u) * T).
  DotnetSampler(double rate, std::uint64_t pointer_size, bool document_draw)
      : rate_(rate), pointer_size_(pointer_size), document_draw_(document_draw) {}

  // Each thread's pointer-aligned object sizes with prefix sums, for replay_skip_ahead.
  static CountedStreams object_streams(const Trace& trace, const ThreadIndex& index, std::uint64_t pointer_size) {
    const SizeColumn& requested = trace.requested;
    return CountedStreams::per_thread(
        index, [&requested, pointer_size](std::uint64_t i) { return dotnet_object_size(requested[i], pointer_size); });
  }
  // For replay_skip_ahead only: `objects` is object_streams(trace, index, pointer_size).
  DotnetSampler(double rate, std::uint64_t pointer_size, bool document_draw,
                std::shared_ptr<const CountedStreams> objects)
      : rate_(rate), pointer_size_(pointer_size), document_draw_(document_draw), objects_(std::move(objects)) {}

  // The same budgets seen from the successful bytes: a budget of f failures starting
  // at byte position b of the thread's object stream samples the object holding
  // byte b + f (offset: that byte's), and the fresh budget starts after the object.
  // Draws come from the same lane in the same order as replay(): identical
  // observations, thread by thread.
  template <class Stream>
  void replay_skip_ahead(const Trace& /*trace*/, const ThreadIndex& /*index*/, std::span<Stream> lanes,
                         std::vector<Observation>& out) const {
    per_thread_first_success_skip_ahead(*objects_, Budgets<Stream>{*this, nullptr, lanes, out});
  }

  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    per_thread_first_success(trace, budget_, Budgets<Stream>{*this, &trace.requested, lanes, out});
  }

 private:
  // .NET's countdown: each thread's budget of failed byte trials over its objects'
  // pointer-aligned sizes; the object holding the successful byte is sampled and a
  // fresh budget drawn.
  template <class Stream>
  struct Budgets {
    const DotnetSampler& sampler;
    const SizeColumn* requested;  // streaming only
    std::span<Stream> lanes;
    std::vector<Observation>& out;

    std::uint64_t units(std::size_t i) const { return dotnet_object_size((*requested)[i], sampler.pointer_size_); }
    // The budget-th byte (0-based) succeeded.
    void record(std::size_t i, std::uint64_t, std::uint64_t budget) { out.push_back({i, 1, budget, 0.0}); }
    std::uint64_t redraw(std::size_t t) { return sampler.draw_budget(lanes[t]); }
  };

  // Failed trials before the next success. The uniform v in (0, 1] plays 1 - u.
  template <class Stream>
  std::uint64_t draw_budget(Stream& stream) const {
    const double v = stream.next_uniform();
    if (document_draw_) return geometric_trials_from_uniform(v, 1.0 / rate_) - 1;
    const double failures = std::floor(exponential_from_uniform(v, rate_));
    return failures < 0x1.0p64 ? static_cast<std::uint64_t>(failures) : std::numeric_limits<std::uint64_t>::max();
  }

  double rate_;
  std::uint64_t pointer_size_;
  bool document_draw_;
  std::vector<std::uint64_t> budget_;              // per thread: failed trials left before the next success
  std::shared_ptr<const CountedStreams> objects_;  // skip-ahead only
};

SchemeDescriptor dotnet_scheme();

}  // namespace allocsim
