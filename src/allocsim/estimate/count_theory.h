#pragma once
// Closed forms for estimators of the form  estimate = w * N  where N, the number of
// sample points that fall in a group, is Poisson or binomial and the truth is w*E[N].
// The relative error |wN - wE[N]| / (wE[N]) = |N - E[N]| / E[N] does not depend on w.
//
// Mean absolute deviations (De Moivre's identity for the binomial, its Poisson limit):
//   Binomial(n, p):  E|X - np| = 2 m (1-p) P(X = m),   m = floor(np) + 1
//   Poisson(l):      E|N - l|  = 2 l P(N = floor(l))
// Conditional on N >= 1 the zero outcome, whose absolute error is E[N], is removed:
//   E[|N - E N| ; N >= 1] = E|N - E N| - P(N = 0) E[N].
#include <cstdint>

#include "allocsim/estimate/theory_values.h"

namespace allocsim {

// N ~ Poisson(lambda): the exponential-countdown samplers (heapprofd's algorithm
// with continuous gaps): lambda = S/T, w = T, Var = w^2 lambda = T*S.
TheoryValues poisson_scaled_count_theory(double lambda, double weight);

// N ~ Binomial(n, p): one Bernoulli trial per byte: n = S, p = 1/T, w = T,
// Var = T^2 S p (1-p) = S (T - 1).
TheoryValues binomial_scaled_count_theory(std::uint64_t n, double p, double weight);

}  // namespace allocsim
