#pragma once
// A HotSpot thread's TLAB as JFR's allocation events see it (OpenJDK 17), with JVMTI
// heap sampling off, so the TLAB's end is its allocation end and only real slow paths
// leave it. Configured by the JVM model's JvmTlabConfig and placed by its JvmHeap
// (systems/jvm/jvm_tlab.h); jvm_tlab.h's own thread model is not reused because it is
// the JEP 331 countdown's (sample end, bytes since the sample point) and does not say
// which path an object took nor what the thread's allocated_bytes are, which is all
// JFR reads. Paths (gc/shared/memAllocator.cpp allocate_inside_tlab_slow,
// allocate_outside_tlab; threadLocalAllocBuffer.cpp retire; read at robin977/jdk17u-dev
// a4e5fd7 and corretto/corretto-17 0d506f4):
//   fast: the object fits before the end: no event;
//   outside, TLAB kept: free > refill_waste_limit: record_slow_allocation raises the
//     limit by TLABWasteIncrement; allocated_bytes += the object;
//   new TLAB: retire the old one (allocated_bytes += its used bytes), new TLAB of
//     min(desired + object, max) bytes with the object at its start, usable up to its
//     size less the alignment reserve, limit = desired / TLABRefillWasteFraction; the
//     object's bytes join allocated_bytes only when this TLAB is retired;
//   outside after a failed refill (object + reserve above the TLAB's size): the old
//     TLAB is retired all the same, the thread has none, allocated_bytes += object.
// Thread::allocated_bytes() is the raw counter (retired TLABs and outside objects),
// not cooked_allocated_bytes() (which adds the current TLAB's used bytes).
#include <cstdint>

#include "allocsim/sampler/systems/jvm/jvm_tlab.h"

namespace allocsim {

enum class JfrAllocationPath { fast, new_tlab, outside };

class JfrTlab {
 public:
  explicit JfrTlab(const JvmTlabConfig& config) : limit_(config.initial_waste_limit()) {}

  // Allocates `size` bytes (a multiple of 8); which path it took.
  JfrAllocationPath allocate(const JvmTlabConfig& config, JvmHeap& heap, std::uint64_t size) {
    if (top_ + size <= end_) {
      top_ += size;
      return JfrAllocationPath::fast;
    }
    if (end_ - top_ > limit_) {
      limit_ += config.waste_increment;
      heap.allocate_outside(size);
      allocated_ += size;
      return JfrAllocationPath::outside;
    }
    allocated_ += top_;  // retire: the used bytes (0 when the thread has no TLAB)
    const std::uint64_t tlab = heap.new_tlab(config, size);
    if (tlab == 0) {
      top_ = end_ = size_ = 0;
      heap.allocate_outside(size);
      allocated_ += size;
      return JfrAllocationPath::outside;
    }
    top_ = size;
    end_ = tlab - config.reserve;
    size_ = tlab;
    limit_ = config.initial_waste_limit();
    return JfrAllocationPath::new_tlab;
  }

  // Thread::allocated_bytes(): retired TLABs' used bytes plus outside objects.
  std::uint64_t allocated_bytes() const { return allocated_; }
  // The current TLAB's used bytes (not yet in allocated_bytes).
  std::uint64_t tlab_used() const { return top_; }
  // The current TLAB's size in bytes, the reserve included (HotSpot's
  // _allocated_tlab_size at its refill, what AllocTracer::send_allocation_in_new_tlab
  // is given); 0 before the first refill.
  std::uint64_t tlab_bytes() const { return size_; }

 private:
  std::uint64_t top_ = 0;  // relative to the current TLAB's start
  std::uint64_t end_ = 0;
  std::uint64_t size_ = 0;   // the current TLAB's bytes
  std::uint64_t limit_ = 0;  // refill_waste_limit
  std::uint64_t allocated_ = 0;
};

}  // namespace allocsim
