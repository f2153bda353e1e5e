#pragma once
// `async-profiler`: the allocation profiles of async-profiler (async-profiler/async-profiler,
// HEAD b583d82c2aa9259f303205203807850fcfefc575, 2026-08-06: src/objectSampler.cpp,
// src/allocTracer.cpp, src/mallocTracer.cpp, src/engine.h, src/arguments.cpp/.h,
// docs/ProfilingModes.md; ../shared/research/landscape-2026.md §1.2 item (2)).
//
// mode "alloc" (`-e alloc` on JDK 11+, src/objectSampler.cpp): JVMTI
//   SetHeapSamplingInterval(T), T = --alloc, or DEFAULT_ALLOC_INTERVAL = 524287
//   (src/arguments.h) when --alloc is absent or 0 (ObjectSampler::start: `args._alloc
//   > 0 ? args._alloc : DEFAULT_ALLOC_INTERVAL`; interval 0 here samples every object),
//   i.e. HotSpot's JEP 331 sampler (systems/jvm/jvm.h): each thread's countdown of
//   ~Exp(T) bytes over object sizes u (rounded up to 8), an object sampled
//   independently with pi(u) = 1 - e^(-u/T). Each sample is recorded
//   with _total_size = size > _interval ? size : _interval, i.e. weight max(u, T)
//   (so since commit b5258cca, 2022-04). Estimators, as the consumer computes them:
//     bytes    = sum of max(u, T) per sample (the profile with --total):
//                E = max(u,T) (1 - e^(-u/T)), relative bias max(u,T)(1 - e^(-u/T))/u - 1:
//                -21.3 % at u = T/2, -36.8 % at u = T, -13.5 % at u = 2T; for u < T
//                it is T(1 - e^(-u/T))/u - 1 = -u/(2T) + u^2/(6T^2) - ... -> 0 for
//                u << T, and -e^(-u/T) -> 0 for u >= T (pi -> 1);
//     count_raw = 1 per sample (the flame graph's default without --total,
//                docs/ProfilerOptions.md; JfrToOtlp `!args.total ? e.samples()`),
//                the house's name for raw sample counts: as a count E = 1 - e^(-u/T),
//                so a site's share is sum (1 - e^(-u/T)), proportional to bytes for
//                u << T but to the object count for u >> T;
//     bytes_ht = u / (1 - e^(-u/T)) per sample (Horvitz-Thompson; what JEP 331 agents
//                such as cloud-profiler-java compute): unbiased, the reference.
//   Variance per object: w^2 pi (1 - pi) for the weight w; objects are independent.
// mode "nativemem" (src/mallocTracer.cpp): src/engine.h updateCounter(counter, size,
//   interval) is one process-wide CAS counter: next = counter + size; next < interval
//   keeps next, otherwise the call fires and keeps next % interval (interval <= 1:
//   every call fires). A deterministic byte stride with carry: the malloc that
//   crosses a multiple of T fires, once, however many multiples it spans. Its value
//   is the allocation's own size, unscaled:
//     bytes    = s per sample;  count_raw = 1 per sample.
//   The counter starts at 0 when the profiler starts, somewhere in the program's
//   allocations; here its starting value is uniform on {0, ..., T - 1}, drawn once
//   per replication from thread 0's stream (modulo reduction of a 64-bit word:
//   bias below T / 2^64), so the Monte Carlo averages over the phase. Then an
//   allocation of s bytes fires with probability exactly min(1, s/T) wherever it
//   lies, and E[bytes] = s min(1, s/T): relative bias s/T - 1 for s < T (a site
//   weighs sum s^2 / T), none for s >= T; E[count_raw] = min(1, s/T).
//   Inclusions are not independent (at most one firing per T bytes), so only the
//   group's bias is a sum of per-allocation pieces; its variance and P(>= 1 sample)
//   are given for a group of one allocation only (and for T <= 1, exact).
//   async-profiler's own nativemem interval is 0 (every malloc) for `-e nativemem`
//   alone and 512 KiB (524288) in `all` mode; this scheme's default is alloc's
//   524287, so give interval 0 or 524288 to match those.
// mode "tlab" (`-e alloc --tlab`, and `-e alloc` on JDK < 11, where
//   Profiler::selectAllocEngine falls back to AllocTracer; src/allocTracer.cpp): traps
//   on HotSpot's AllocTracer::send_allocation_in_new_tlab(klass, obj, tlab_size,
//   alloc_size, thread) and send_allocation_outside_tlab(klass, obj, alloc_size,
//   thread), i.e. only the allocation slow paths: an object that starts a new TLAB
//   (value v = the new TLAB's size, reserve included) or one allocated outside a TLAB
//   (v = its own size). Objects on the fast path are never seen. Each event goes
//   through the same updateCounter(_allocated_bytes, v, _interval) with T = --alloc
//   if > 0, else 0: every event (so `-e alloc --tlab` alone records every refill).
//   A firing is recorded with the value v, unscaled ("the counter is the heap
//   pressure (the total size of allocated TLABs or objects outside TLAB)",
//   docs/ProfilingModes.md):
//     bytes    = v per sample;  count_raw = 1 per sample.
//   An event fires with probability min(1, v/T) under the counter's random phase, so
//   with T above the TLAB size V the profile's total is about V/T of the bytes (a
//   half at --alloc 512k with 256 KiB TLABs), in each thread by its own V/T, while
//   docs/ProfilingModes.md reads --alloc as "one sample after 500 KB on average".
//   Within a thread, the refill is credited to the object that did not fit: a site's
//   share is its share of refills, not of bytes (objects that leave a large tail
//   unused, or that go outside, take more or less than their bytes). TLABs are
//   jfr's (systems/jfr/jfr_tlab.h, JvmTlabConfig of systems/jvm/jvm_tlab.h): a fixed
//   size, one contiguous heap, no GC within the trace, every thread starting with no
//   TLAB. No per-allocation closed form (theory columns empty): which object meets a
//   refill follows its thread's TLAB state. The events themselves do not depend on
//   the draws, so given them E[bytes] = sum of v min(1, v/T), exactly (tested).
// Not modelled: `--live`, the OpenJ9 j9ObjectSampler path, frees (nativemem's leak
// mode), HotSpot's adaptive TLAB sizes (ResizeTLAB).
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/sampler/families/countdown_carry.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/jfr/jfr_tlab.h"
#include "allocsim/sampler/systems/jvm/jvm.h"
#include "allocsim/trace/thread_index.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

// async-profiler's nativemem counter (Engine::updateCounter) over the process's
// malloc sizes, from a uniformly random starting value c: the carried countdown
// (countdown_carry.h) with one process-wide counter whose points sit at the 0-based
// positions k T - c - 1 (k >= 1) of the process's bytes. The allocation holding
// one fires once however many it holds (next % interval), and the next point is
// the first such position past its end.
class NativememSampler {
 public:
  explicit NativememSampler(std::uint64_t interval) : interval_(interval) {}
  // For replay_skip_ahead only (interval > 1): `stream` is process_stream(trace, index).
  NativememSampler(std::uint64_t interval, std::shared_ptr<const CountedStreams> stream)
      : interval_(interval), stream_(std::move(stream)) {}

  // The whole trace in order as one stream of requested sizes with prefix sums:
  // borrowed from the index for a single-threaded trace, built otherwise.
  static CountedStreams process_stream(const Trace& trace, const ThreadIndex& index) {
    if (index.thread_count() == 1) return CountedStreams::requested(index);
    const SizeColumn& size = trace.requested;
    return CountedStreams::whole_trace(trace.size(), [&size](std::uint64_t i) { return size[i]; });
  }

  // Observation: offset = the 0-based offset in the allocation of the first byte
  // that completes a multiple of T (0 with T <= 1), weight = its size.
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) const {
    const SizeColumn& size = trace.requested;
    if (interval_ <= 1) {  // `if (interval <= 1) return true;`: every call, empty ones too
      for (std::size_t i = 0; i < trace.size(); ++i) out.push_back({i, 1, 0, static_cast<double>(size[i])});
      return;
    }
    if (lanes.empty()) return;
    std::uint64_t next = 0;
    Stride<Stream> stride{interval_, size, lanes[0], out};
    carried_countdown_replay(
        trace.size(), std::span<std::uint64_t>(&next, 1), [](std::size_t) { return 0; }, stride);
  }

  // The same seen from the points of the process-wide stream: same draw,
  // identical observations.
  template <class Stream>
  void replay_skip_ahead(const Trace& trace, const ThreadIndex& /*index*/, std::span<Stream> lanes,
                         std::vector<Observation>& out) const {
    if (lanes.empty()) return;
    Stride<Stream> stride{interval_, trace.requested, lanes[0], out};
    carried_skip_ahead(*stream_, 0, 0, stride);
  }

 private:
  // updateCounter as a carried countdown: the first gap T - c from the starting
  // value c (uniform on 0..T-1: a 64-bit word mod T, bias below T / 2^64), then T;
  // the points after an allocation's first are deterministic, counted in one step
  // (so a huge malloc at a small T costs no loop) and recorded as one firing.
  template <class Stream>
  struct Stride {
    std::uint64_t interval;
    const SizeColumn& size;
    Stream& lane;
    std::vector<Observation>& out;
    bool started = false;

    std::uint64_t units(std::size_t i) const { return size[i]; }
    void record(std::size_t i, std::uint64_t offset, std::uint64_t /*points*/) {
      out.push_back({i, 1, offset, static_cast<double>(size[i])});
    }
    std::uint64_t redraw(std::size_t /*counter*/) {
      if (started) return interval;
      started = true;
      return interval - lane.next_u64() % interval;
    }
    // The further multiples inside [x, stop): x moves to the last of them.
    std::uint64_t deterministic(std::uint64_t& x, std::uint64_t stop) const {
      const std::uint64_t more = (stop - 1 - x) / interval;
      x += more * interval;
      return more;
    }
  };

  std::uint64_t interval_;
  std::shared_ptr<const CountedStreams> stream_;  // skip-ahead only
};

// src/engine.h Engine::updateCounter on one thread of control (its CAS always
// succeeds): true when the call fires.
inline bool async_profiler_update_counter(std::uint64_t& counter, std::uint64_t value, std::uint64_t interval) {
  if (interval <= 1) return true;
  const std::uint64_t next = counter + value;
  if (next < interval) {
    counter = next;
    return false;
  }
  counter = next % interval;
  return true;
}

// async-profiler's tlab mode (AllocTracer): each thread's TLAB (jfr_tlab.h) reports
// its slow paths, valued at the new TLAB's size or the outside object's size, to
// one process-wide updateCounter whose starting value is uniform on 0..T-1 (thread
// 0's stream, as nativemem). Streaming only.
class AsyncProfilerTlabSampler {
 public:
  AsyncProfilerTlabSampler(const JvmTlabConfig& config, std::uint64_t interval)
      : config_(config), interval_(interval) {}

  // Observation: offset 0, weight = the event's value v.
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) const {
    if (lanes.empty()) return;
    std::uint64_t counter = interval_ > 1 ? lanes[0].next_u64() % interval_ : 0;
    std::vector<JfrTlab> tlabs(lanes.size(), JfrTlab(config_));
    JvmHeap heap(config_);
    for (std::size_t i = 0; i < trace.size(); ++i) {
      const std::uint64_t size = jvm_object_size(trace.requested[i]);
      JfrTlab& tlab = tlabs[trace.thread[i]];
      const JfrAllocationPath path = tlab.allocate(config_, heap, size);
      if (path == JfrAllocationPath::fast) continue;
      const std::uint64_t value = path == JfrAllocationPath::new_tlab ? tlab.tlab_bytes() : size;
      if (async_profiler_update_counter(counter, value, interval_)) {
        out.push_back({i, 1, 0, static_cast<double>(value)});
      }
    }
  }

 private:
  JvmTlabConfig config_;
  std::uint64_t interval_;
};

SchemeDescriptor async_profiler_scheme();

}  // namespace allocsim
