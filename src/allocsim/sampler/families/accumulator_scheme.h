#pragma once
// The accumulator scheme (accumulator_sampler.h) with its estimators and theory,
// shared by the systems that use that sampler (systems/chromium, systems/ddprof):
// each declares its own default rate and sources and creates the scheme here.
#include <memory>

#include "allocsim/sampler/scheme.h"
#include "allocsim/sampler/scheme_parameters.h"

namespace allocsim {

// From the parameters "rate" (T, at most 2^40 bytes) and "keep".
std::unique_ptr<Scheme> create_accumulator(SchemeParameters& params);

// What every accumulator system declares beside its rate: the second layer's keep
// probability, and the variants of the model and of the estimators.
extern const ParameterInfo kAccumulatorKeepParameter;
extern const char* const kAccumulatorVariant;
extern const char* const kAccumulatorEstimatorVariant;

}  // namespace allocsim
