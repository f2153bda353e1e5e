#pragma once
// `ddprof`: Datadog's native allocation tracker (DataDog/ddprof
// src/lib/allocation_tracker.cc, 3c60440), Chromium's accumulator sampler
// (families/accumulator_sampler.h) with T = 512 KiB:
//   per thread, acc += s; once acc >= 0: floor(acc / T) samples, then exponential
//   draws (std::exponential_distribution on std::minstd_rand, clamped to [8, 20 T],
//   truncated) until acc < 0 again, leftover carried; weight T * samples.
#include "allocsim/sampler/registry.h"

namespace allocsim {

SchemeDescriptor ddprof_scheme();

}  // namespace allocsim
