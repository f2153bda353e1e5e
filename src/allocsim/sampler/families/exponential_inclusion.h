#pragma once
// Per-allocation theory shared by the samplers that sample an allocation of u
// counted bytes independently of all others with pi = 1 - e^(-u/mean) (a
// memoryless countdown whose leftover is discarded, or carried with a single
// count): a weight w taken with probability pi has mean pi w and variance
// w^2 pi (1 - pi).
#include <cmath>

#include "allocsim/sampler/scheme.h"

namespace allocsim {

// mean = 0 samples everything, u = 0 included (a countdown at zero fires on every
// allocation); otherwise u = 0 is never sampled.
inline AllocationTheory weighted_inclusion_theory(double u, double mean, double weight, double truth) {
  if (mean == 0) return {weight - truth, 0.0, -INFINITY};
  if (u == 0) return {-truth, 0.0, 0.0};
  const double log_p_none = -u / mean;
  const double pi = -std::expm1(log_p_none);
  return {pi * weight - truth, weight * weight * pi * std::exp(log_p_none), log_p_none};
}

// The Horvitz-Thompson factor 1 / (1 - e^(-u/rate)) the consumers divide by (1 for
// rate 0: everything sampled).
inline double exponential_unsampling_scale(double u, double rate) {
  return rate == 0 ? 1.0 : 1.0 / -std::expm1(-u / rate);
}

}  // namespace allocsim
