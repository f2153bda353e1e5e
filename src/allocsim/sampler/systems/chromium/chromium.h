#pragma once
// `chromium`: Chromium's PoissonAllocationSampler (base/sampling_heap_profiler/
// poisson_allocation_sampler.cc) with its default T = 128 KiB
// (kDefaultSamplingIntervalBytes). The sampler is the accumulator of
// families/accumulator_sampler.h:
//   per thread, acc += s; once acc >= 0: floor(acc / T) samples, then draws of
//   trunc(-T ln u) (clamped to [8, 20 T]) until acc < 0 again, leftover carried;
//   weight T * samples, unbiased, variance T s below T and under ~1.6 T^2 above.
#include "allocsim/sampler/registry.h"

namespace allocsim {

SchemeDescriptor chromium_scheme();

}  // namespace allocsim
