#include "allocsim/sampler/systems/chromium/chromium.h"

#include "allocsim/sampler/families/accumulator_scheme.h"

namespace allocsim {

SchemeDescriptor chromium_scheme() {
  return {
      .name = "chromium",
      .summary = "Chromium PoissonAllocationSampler: per-thread accumulator, floor(acc/T) "
                 "deterministic samples plus exponential draws, leftover carried; weight T*samples.",
      .source = "chromium base/sampling_heap_profiler/poisson_allocation_sampler.cc",
      .parameters = {{"rate", "integer", 131072, "sampling interval T in bytes (kDefaultSamplingIntervalBytes)"},
                     kAccumulatorKeepParameter},
      .variants = {"Intervals: trunc(-T ln(1 - u)) clamped to [8, 20 T] from base::RandDouble; "
                   "the random source here is the replication's stream.",
                   "Not modelled: failed (null) allocations, reentrancy muting and duplicate "
                   "addresses, which the sampler skips.",
                   kAccumulatorVariant, kAccumulatorEstimatorVariant},
      .create = create_accumulator,
      .rate = SchemeRate{},
      .skip_ahead = true,
  };
}

}  // namespace allocsim
