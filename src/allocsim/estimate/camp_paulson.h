#pragma once
// The Camp-Paulson approximation of the negative binomial CDF (the .NET
// document's "Barko(66)", i.e. Bartko 1966; formula in intervals.md §1.3):
//
//   P(X <= k) = P(F(2s, 2(k+1)) <= f) ~ Phi(w),   f = (k+1) p / (s q),
//   w = [ (1-a) f^(1/3) - (1-b) ] / sqrt( a f^(2/3) + b ),  a = 1/(9(k+1)), b = 1/(9s)
//
// Paulson's cube-root normal approximation to F. The upper tail is Phi(-w),
// never 1 - Phi(w). There is no closed-form inverse (a depends on k), so the
// quantile is found by bisection: on the real k with w(k) = Phi^-1(P), then on
// the integers with the approximate CDF under the same QuantileRounding rules
// as the exact quantile (negative_binomial.h).
#include "allocsim/estimate/negative_binomial.h"

namespace allocsim::interval {

// Approximate P(X <= failures) and P(X > failures); failures whole and >= 0.
double camp_paulson_cdf(const NegativeBinomial& distribution, double failures);
double camp_paulson_cdf_complement(const NegativeBinomial& distribution, double failures);

// Approximate quantiles for lower-tail P in (0, 1) and upper-tail Q in (0, 1).
double camp_paulson_quantile(const NegativeBinomial& distribution, double probability, QuantileRounding rounding);
double camp_paulson_quantile_complement(const NegativeBinomial& distribution, double upper_tail_probability,
                                        QuantileRounding rounding);

struct CdfError {
  double max_abs_error;  // max over k of |camp_paulson_cdf(k) - cdf(k)|
  double at_failures;    // the k where it is reached
};

// The largest absolute CDF error of Camp-Paulson against the exact CDF over the
// failure counts between the exact 1e-12 and 1 - 1e-12 quantiles (outside them
// both CDFs are within 1e-12 of 0 or 1). Found on a grid (linear over that
// range plus geometric from k = 0, where small s is worst), then refined on the
// integers around the grid's maximum.
CdfError camp_paulson_max_cdf_error(const NegativeBinomial& distribution);

}  // namespace allocsim::interval
