#pragma once
// HotSpot's thread-local allocation buffers (TLABs) as the JEP 331 sampler sees them
// (OpenJDK 17: gc/shared/memAllocator.cpp, gc/shared/threadLocalAllocBuffer.cpp,
// runtime/threadHeapSampler.cpp). The sampler never looks at single allocations: it
// is told about an object only when its allocation leaves the TLAB fast path, and
// then with the bytes the TLAB has "accounted" since its last report. With sampling
// on, the TLAB's end is pulled in to the sample point, so in the steady state the
// object that crosses the point takes the slow path and is sampled. Three paths
// break that picture, and this model follows each one:
//
//   slow path (object does not fit before _end):
//     _end = _allocation_end; try the TLAB again                   (sample end only)
//     else if free > refill_waste_limit: allocate outside the TLAB (keep it),
//       refill_waste_limit += TLABWasteIncrement
//     else refill: new TLAB of min(desired + object, max) bytes, object at its start,
//       usable up to size - alignment reserve; refill_waste_limit = desired / fraction
//   then check_for_sampling(size, since), since = 0 outside the TLAB, else
//   _bytes_since_last_sample_point (S):
//     size + since < B: B -= size + since; otherwise sample, B = fresh interval
//   then set_sample_end(reset = since != 0):
//     if reset: S = 0
//     if remaining words > B / 8: _end = top + B / 8 words, S += B
//     else S += remaining bytes
//
// Consequences the plain countdown (jvm.h) misses: an object allocated outside the
// TLAB is checked against B before the TLAB bytes since the last report are taken
// off it (the sample they should have triggered moves to a later slow-path object),
// and S grows again at each outside allocation while it is not reset, so the next
// TLAB report counts the free tail more than once.
//
// Start: thread 0 may begin inside a TLAB with `initial` bytes free (other threads,
// and thread 0 when `initial` is 0, begin without one: their first object refills).
// `initial_armed` false: the TLAB was filled before sampling was switched on. The JVM
// enables SampledObjectAlloc in the live phase, after the main thread filled its
// first TLAB with no sample end; objects that fit in what is left of it pass the fast
// path and are never sampled (measured: the first 18 of the conformance plan's 256
// KiB objects under the serial collector). Armed: the sample end is set as after a
// refill, from a fresh interval.
//
// Heap: no garbage collection (which retires every TLAB) within the trace. With
// `region` 0 it is one contiguous space (the serial collector's eden). Otherwise it
// is G1's mutator allocation region, shared by all threads, with `region_used` bytes
// in use at the start: a refill
// gets min(free, desired + object, max) bytes of it when at least the minimum TLAB
// (object + reserve, and MinTLABSize + reserve) is free; otherwise the refill fails,
// the old TLAB stays retired and the object is allocated outside in a new region
// (measured with -Xlog:gc+tlab=trace: the next allocation then refills, and reports
// the stale S of the retired TLAB). Objects allocated outside go to the region when
// they fit, else to a new one; humongous objects (half a region or more) to regions
// of their own. Not modelled: the partly used region G1 keeps aside for later TLABs
// (MutatorAllocRegion's retained region), and refills that fail although the region
// had room (README, Conformance: the G1 verdict).
#include <algorithm>
#include <cstdint>

namespace allocsim {

// alignment_reserve() of OpenJDK 17 on x86-64 with C2: (AllocatePrefetchDistance 256
// + AllocatePrefetchStepSize 64 x (3 lines + 2)) bytes.
inline constexpr std::uint64_t kJvmTlabReserve = 576;

struct JvmTlabConfig {
  std::uint64_t desired = 0;                 // TLAB bytes (-XX:TLABSize with -XX:-ResizeTLAB); 0 = model off
  std::uint64_t max = 0;                     // cap on a TLAB's bytes; 0 = none
  std::uint64_t reserve = kJvmTlabReserve;   // alignment_reserve()
  std::uint64_t refill_waste_fraction = 64;  // TLABRefillWasteFraction
  std::uint64_t waste_increment = 32;        // TLABWasteIncrement, 4 words
  std::uint64_t initial = 0;                 // thread 0's free TLAB bytes at the start
  bool initial_armed = false;                // whether that TLAB has a sample end
  std::uint64_t region = 0;                  // G1 region bytes; 0 = one contiguous space
  std::uint64_t region_used = 0;             // bytes of the current region in use at the start

  bool enabled() const { return desired > 0; }
  std::uint64_t initial_waste_limit() const { return desired / refill_waste_fraction; }
};

// MinTLABSize (2 KiB): the smallest TLAB before the reserve.
inline constexpr std::uint64_t kJvmMinTlab = 2048;

// Where the heap puts TLABs and objects allocated outside them (see above).
class JvmHeap {
 public:
  explicit JvmHeap(const JvmTlabConfig& config) : region_(config.region), used_(config.region_used) {}

  // A new TLAB for an object of `size`: its bytes, or 0 when the refill fails.
  std::uint64_t new_tlab(const JvmTlabConfig& config, std::uint64_t size) {
    std::uint64_t tlab = config.desired + size;
    if (config.max > 0) tlab = std::min(tlab, config.max);
    if (region_ == 0) return tlab < size + config.reserve ? 0 : tlab;  // compute_size's minimum
    const std::uint64_t free = region_ - used_;
    if (free < std::max(size, kJvmMinTlab) + config.reserve) return 0;
    tlab = std::min(tlab, free);
    used_ += tlab;
    return tlab;
  }

  void allocate_outside(std::uint64_t size) {
    if (region_ == 0 || 2 * size >= region_) return;  // contiguous, or humongous
    used_ = used_ + size <= region_ ? used_ + size : size;
  }

 private:
  std::uint64_t region_;
  std::uint64_t used_;  // bytes of the current region handed out
};

// One thread's TLAB and its sampler countdown. Byte positions are relative to the
// current TLAB's start; every size is a multiple of 8 (HeapWordSize).
class JvmTlabThread {
 public:
  // A thread starts with no TLAB (its first allocation refills), or in one with
  // `initial` bytes free, armed or not.
  JvmTlabThread(const JvmTlabConfig& config, std::uint64_t first_interval, std::uint64_t initial, bool armed)
      : allocation_end_(initial / 8 * 8),
        end_(allocation_end_),
        limit_(config.initial_waste_limit()),
        until_sample_(first_interval) {
    if (armed) set_sample_end(true);
  }

  // Allocates an object of `size` bytes; true when the sampler reports it. `redraw`
  // gives the next interval after a sample.
  template <class Redraw>
  bool allocate(const JvmTlabConfig& config, JvmHeap& heap, std::uint64_t size, Redraw&& redraw) {
    if (top_ + size <= end_) {  // fast path: no sampler involvement
      top_ += size;
      return false;
    }
    end_ = allocation_end_;  // set_back_allocation_end
    bool outside = false;
    if (top_ + size <= allocation_end_) {
      top_ += size;
    } else if (allocation_end_ - top_ > limit_) {
      limit_ += config.waste_increment;  // record_slow_allocation
      outside = true;
      heap.allocate_outside(size);
    } else {
      const std::uint64_t tlab = heap.new_tlab(config, size);
      if (tlab == 0) {  // the old TLAB is retired all the same; the object goes outside
        top_ = allocation_end_ = end_ = 0;
        outside = true;
        heap.allocate_outside(size);
      } else {
        top_ = size;
        allocation_end_ = end_ = tlab - config.reserve;
        limit_ = config.initial_waste_limit();
      }
    }
    const std::uint64_t since = outside ? 0 : since_sample_point_;
    const std::uint64_t total = since + size;
    bool sampled = false;
    if (total < until_sample_) {
      until_sample_ -= total;
    } else {
      sampled = true;
      until_sample_ = redraw();
    }
    set_sample_end(since != 0);
    return sampled;
  }

 private:
  void set_sample_end(bool reset) {
    const std::uint64_t remaining_words = (allocation_end_ - top_) / 8;
    const std::uint64_t words_until_sample = until_sample_ / 8;
    if (reset) since_sample_point_ = 0;
    if (remaining_words > words_until_sample) {
      end_ = top_ + words_until_sample * 8;
      since_sample_point_ += until_sample_;
    } else {
      since_sample_point_ += remaining_words * 8;
    }
  }

  std::uint64_t top_ = 0;
  std::uint64_t allocation_end_ = 0;      // _allocation_end: the usable end
  std::uint64_t end_ = 0;                 // _end: the sample end or _allocation_end
  std::uint64_t limit_ = 0;               // refill_waste_limit
  std::uint64_t since_sample_point_ = 0;  // _bytes_since_last_sample_point (S)
  std::uint64_t until_sample_ = 0;        // ThreadHeapSampler::_bytes_until_sample (B)
};

}  // namespace allocsim
