#pragma once
// Exact confidence intervals for the true objects and bytes behind a profile entry
// from the samples it holds, under the sampling model of the system that wrote it.
//
// Binomial models (one trial per allocation, probability p = sample_probability(s)):
// the k samples of n objects are Binomial(n, p), n unknown. The interval is the
// Clopper-Pearson construction in n:
//   lower = min{n : P(K >= k | n) > a/2},   upper = max{n : P(K <= k | n) > a/2},
// with a = 1 - level. Since P(K >= k | n) = P(W_k <= n - k) for W_k the failures
// before the k-th success (negative binomial), lower = k + the (a/2)-quantile of W_k
// and upper = k + the (1 - a/2)-quantile of W_(k+1) (both rounded up; see
// estimate/negative_binomial.h); k = 0 gives lower = 0. Each tail holds at most a/2,
// so coverage is at least `level` for every n. Bytes are objects times the size.
//
// Poisson model (samples in B bytes ~ Poisson(B/T)): Garwood's exact interval for
// the mean, lower = gamma_p_inv(k, a/2), upper = gamma_q_inv(k + 1, a/2) (the
// chi-square form of Garwood 1936, Biometrika 28:437), times T for bytes; objects
// are bytes over the size. From 10^9 samples on (where Boost's inverses give up) the
// same limits come from their Wilson-Hilferty normal form (entry_interval.cpp).
//
// A record that mixes sizes is treated as all of its average size: exact for one
// size, a named approximation otherwise (its coverage is measured in the tests).
#include <string>

#include "allocsim/profile/sampling_model.h"

namespace allocsim::profile {

struct EntryInterval {
  double objects_lower = 0;
  double objects_upper = 0;
  double bytes_lower = 0;
  double bytes_upper = 0;
  std::string method;
};

// `samples` is a whole number >= 0, `size` > 0, 0 < level < 1 (InputError otherwise).
EntryInterval entry_interval(const SamplingModel& model, double samples, double size, double level, bool mixed_sizes);

}  // namespace allocsim::profile
