#pragma once
// `chromium` and `ddprof`: the two accumulator samplers (accumulator_sampler.h),
// with their defaults (128 KiB, 512 KiB) and sources.
#include "allocsim/sampler/registry.h"

namespace allocsim {

SchemeDescriptor chromium_scheme();
SchemeDescriptor ddprof_scheme();

}  // namespace allocsim
