#pragma once
// The change in an entry's true bytes between two sampled heap profiles, NEW - BASE,
// with an exact confidence interval: the byte side of `allocsim diff`.
//
// Model (as count_change.h): BASE's samples K1 ~ Poisson(mu1), NEW's K2 ~ Poisson(mu2),
// independent, mu_i = B_i w_i for true bytes B_i and w_i expected samples per true
// byte (samples_per_byte, sampling_model.h). With N = K1 + K2 ~ Poisson(mu),
// mu = mu1 + mu2, and p = mu1 / mu,
//     D = B2 - B1 = mu ((1 - p) / w2 - p / w1),
// so D is a function of the pooled mean mu and the conditional proportion p.
// Interval: p in the Clopper-Pearson interval of K1 of N (count_change.h, whose
// coverage holds given every N), mu in Garwood's exact interval from N
// (entry_interval.h), each at level c = sqrt(level), and D over that rectangle (D is
// bilinear in mu and g(p) = (1-p)/w2 - p/w1, which falls with p: its extremes are at
// the corners). Coverage: with A = {p covered} and M = {mu covered}, M depends on N
// alone and P(A | N) >= c for every N, so P(A and M) = E[1_M P(A | N)] >= c P(M) >= c^2
// = level: exact, with no independence assumed between A and M (a Sidak split made
// valid by conditioning). D = 0 exactly when p = w1 / (w1 + w2), the test's null, so
// the interval excludes 0 exactly when the sqrt(level) ratio interval excludes 1.
// For per-allocation samplers the Poisson form is the test's approximation (Binomial
// counts are less dispersed, so the interval is conservative for them).

#include <cstdint>

namespace allocsim::profile {

struct ByteChangeInterval {
  double lower = 0;  // bytes, NEW - BASE
  double upper = 0;
};

// k1, k2 sampled counts of BASE and NEW; w1, w2 > 0 their expected samples per true
// byte; 0 < level < 1.
ByteChangeInterval byte_change_interval(std::uint64_t k1, std::uint64_t k2, double w1, double w2, double level);

}  // namespace allocsim::profile
