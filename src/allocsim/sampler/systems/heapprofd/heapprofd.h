#pragma once
// `heapprofd`: Perfetto's native heap profiler sampler as its code does it
// (google/perfetto src/profiling/memory/sampler.{h,cc}), read against the heapprofd
// sampling design document (docs/design-docs/heapprofd-sampling.md, 2021-04-14).
//   Gap G = floor(Exp(mean T)) + 1: geometric, per-byte probability 1 - e^(-1/T).
//   Countdown on the requested size, `<= 0` triggers, overshoot carried: an
//   allocation of s bytes holds n ~ Binomial(s, 1 - e^(-1/T)) samples.
//   Pass-through: s >= 1 + floor(ln 0.01 / ln(1 - 1/T)) (~4.6 T, "> 99% chance of a
//   sample", Android 12 on) is recorded at its true size without touching the
//   counter; `passthrough: "rate"` is the pre-Android-12 rule s >= T, "none" drops it.
//   Weights: bytes T n (or s); HeapTracker counts 1 per sampled allocation.
// The counter and random engine are one per heap, shared by all threads (current
// code); `counter: "thread"` is the original thread-local sampler. The shared
// mechanism and its theory are in byte_countdown.h.
#include <cstdint>

#include "allocsim/sampler/registry.h"

namespace allocsim {

// Perfetto's default sampling_interval_bytes (heapprofd.md, "4096 bytes").
inline constexpr std::uint64_t kHeapprofdDefaultInterval = 4096;

// 1 + floor(ln 0.01 / ln(1 - 1/T)): the smallest size a Bernoulli(1/T)-per-byte
// sampler would sample with probability >= 99% (18861 at T = 4096).
std::uint64_t heapprofd_p99_threshold(double rate);

SchemeDescriptor heapprofd_scheme();
// `heapprofd-pre12`: the same with the pre-Android-12 pass-through s >= T.
SchemeDescriptor heapprofd_pre12_scheme();

}  // namespace allocsim
