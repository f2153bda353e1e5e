#pragma once
// `dotnet-tick`: .NET's AllocationTick event, the deterministic baseline that the
// randomized allocation sampling document (dotnet/runtime
// docs/design/features/RandomizedAllocationSampling.md) replaces: "this event
// triggers approximately every time 100KB has been allocated ... It has a fixed
// starting point and stride which can lead to significant sampling error for
// allocation patterns that are periodic."
//   mode "stride" (the document): events at every multiple of the stride
//   (102400 = 100 * 1024 bytes, etw_allocation_tick) of the process's cumulative
//   allocated bytes; the first when they reach one stride. Each event is attributed
//   to the allocation holding byte k * stride and stands for `stride` bytes; one
//   allocation can hold several.
//   mode "reset" (the GC code, gc.cpp try_allocate_more_space): a running amount
//   grows with each allocation; when it exceeds the stride (`>`) the event fires on
//   that allocation, reports the running amount (its weight) and the amount is reset
//   to 0, so the overshoot is dropped and an allocation fires at most once.
// No randomness: every replication is the same, so the error is pure bias,
// derivable from the trace (for a repeating size pattern: which position of the
// pattern holds the boundary bytes).
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/sampler/families/countdown_discard.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

class AllocationTickSampler {
 public:
  AllocationTickSampler(std::uint64_t stride, bool reset) : stride_(stride), reset_(reset) {}

  // The process-wide byte stream (the whole trace in order) with prefix sums of the
  // requested sizes, for replay_skip_ahead: borrowed from the index for a
  // single-threaded trace, built otherwise.
  static CountedStreams process_stream(const Trace& trace, const ThreadIndex& index) {
    if (index.thread_count() == 1) return CountedStreams::requested(index);
    const SizeColumn& size = trace.requested;
    return CountedStreams::whole_trace(trace.size(), [&size](std::uint64_t i) { return size[i]; });
  }
  // For replay_skip_ahead only: `stream` is process_stream(trace, index).
  AllocationTickSampler(std::uint64_t stride, bool reset, std::shared_ptr<const CountedStreams> stream)
      : stride_(stride), reset_(reset), stream_(std::move(stream)) {}

  // The same events seen from the firing bytes, deterministic (no draws). Without
  // reset they sit at 0-based positions m * stride - 1 of the process-wide stream
  // and an allocation holding one counts all of them (the carry); with reset the
  // counter restarts after the firing allocation, so the next one fires stride + 1
  // bytes after its end. Identical observations to replay().
  template <class Stream>
  void replay_skip_ahead(const Trace& trace, const ThreadIndex& /*index*/, std::span<Stream> /*lanes*/,
                         std::vector<Observation>& out) const {
    const CountedStreams& stream = *stream_;
    if (reset_) {
      ResetStrides strides{*this, &trace.requested, out};
      first_success_skip_ahead(stream, 0, strides);
      return;
    }
    const std::uint64_t end = stream.total(0);
    std::uint64_t x = stride_ - 1;  // 0-based position of the next firing byte
    std::size_t k = 0;
    while (x < end) {
      k = stream.find(0, x, k);
      const std::uint64_t after = stream.at(0, k + 1) - 1 - x;  // bytes after the firing byte
      const std::uint64_t events = 1 + after / stride_;
      out.push_back({stream.event(0, k), sample_count(events), x - stream.at(0, k),
                     static_cast<double>(stride_) * static_cast<double>(events)});
      x += events * stride_;
    }
  }

  // One process-wide counter (a workstation GC heap); the lanes are not used.
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> /*lanes*/, std::vector<Observation>& out) {
    const SizeColumn& size = trace.requested;
    if (reset_) {
      std::uint64_t failures = stride_;
      ResetStrides strides{*this, &size, out};
      first_success_replay(
          trace.size(), std::span<std::uint64_t>(&failures, 1), [](std::size_t) { return 0; }, strides);
      return;
    }
    // Bytes up to and including the one that fires the next event.
    std::uint64_t remaining = stride_;
    const std::size_t n = trace.size();
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t s = size[i];
      if (s < remaining) {
        remaining -= s;
        continue;
      }
      out.push_back(fire(i, s, remaining));
    }
  }

 private:
  // With reset, a first-success countdown (countdown_discard.h): one process-wide
  // counter of stride bytes over requested sizes, the same stride after each event.
  struct ResetStrides {
    const AllocationTickSampler& sampler;
    const SizeColumn* size;
    std::vector<Observation>& out;

    std::uint64_t units(std::size_t i) const { return (*size)[i]; }
    void record(std::size_t i, std::uint64_t s, std::uint64_t offset) {
      out.push_back({i, 1, offset, sampler.running_amount(s, offset)});
    }
    std::uint64_t redraw(std::size_t) const { return sampler.stride_; }
  };

  // With reset: the bytes since the reset before the allocation of s bytes whose
  // byte `offset` fires (stride - offset of them), plus the allocation.
  double running_amount(std::uint64_t s, std::uint64_t offset) const {
    return static_cast<double>(stride_ - offset) + static_cast<double>(s);
  }

  // Without reset: every boundary inside the allocation is an event.
  Observation fire(std::size_t i, std::uint64_t s, std::uint64_t& remaining) const {
    const std::uint64_t offset = remaining - 1;
    const std::uint64_t after = s - remaining;  // bytes after the firing byte
    const std::uint64_t events = 1 + after / stride_;
    remaining = stride_ - after % stride_;
    return {i, sample_count(events), offset, static_cast<double>(stride_) * static_cast<double>(events)};
  }

  std::uint64_t stride_;
  bool reset_;
  std::shared_ptr<const CountedStreams> stream_;  // skip-ahead only
};

SchemeDescriptor dotnet_tick_scheme();

}  // namespace allocsim
