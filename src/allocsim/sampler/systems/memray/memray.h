#pragma once
// `memray`: the sampling design of the Memray documentation (docs/sampling.rst,
// "Algorithm") as coded in the unmerged bloomberg/memray PR #94 (8a7a4d1e,
// src/memray/_memray/hooks.cpp BernoulliSampler). Memray as shipped records every allocation.
//   Gap G = floor(Exp(mean T)) + 1, per-byte probability 1 - e^(-1/T).
//   One process-wide countdown shared by all threads (a global atomic in the PR);
//   the overshoot is carried, so an allocation of s < T bytes holds
//   n ~ Binomial(s, 1 - e^(-1/T)) samples and weighs T n.
//   s >= T: "we sample the entire allocation with its original size", without
//   touching the counter.
// The mechanism and its theory are shared with heapprofd (byte_countdown.h): this
// is heapprofd's pre-Android-12 rule with one process-wide counter.
#include "allocsim/sampler/registry.h"

namespace allocsim {

SchemeDescriptor memray_scheme();

}  // namespace allocsim
