#include "allocsim/sampler/systems/ddprof/ddprof.h"

#include "allocsim/sampler/families/accumulator_scheme.h"

namespace allocsim {

SchemeDescriptor ddprof_scheme() {
  return {
      .name = "ddprof",
      .summary = "Datadog ddprof allocation tracker: Chromium's accumulator (floor(acc/T) + "
                 "exponential draws, carried) with T = 512 KiB; weight T*samples.",
      .source = "DataDog/ddprof src/lib/allocation_tracker.cc (3c60440)",
      .parameters = {{"rate", "integer", 524288, "sampling interval T in bytes (sALLOC watcher)"},
                     kAccumulatorKeepParameter},
      .variants = {"Intervals: std::exponential_distribution on std::minstd_rand, clamped to "
                   "[8, 20 T] and truncated; here an exponential from the replication's stream.",
                   kAccumulatorVariant, kAccumulatorEstimatorVariant},
      .create = create_accumulator,
      .rate = SchemeRate{},
      .skip_ahead = true,
  };
}

}  // namespace allocsim
