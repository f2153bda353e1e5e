#pragma once
// The negative binomial distribution of failed trials (bytes) before the s-th
// success (sample), evaluated exactly with Boost.Math.
//
//   P(X <= k) = I_p(s, k+1)       (regularised incomplete beta, boost::math::ibeta)
//   P(X >  k) = I_q(k+1, s) = ibetac(s, k+1, p)   (evaluated directly, never 1 - cdf)
//
// Quantile convention. X is discrete, so "the P-quantile" needs a rounding rule.
// Let x* be the real-valued quantile, the solution of I_p(s, x*+1) = P for real
// x* > -1 (the beta form extended to real failure counts; Boost's `real`
// discrete_quantile policy). Since the CDF increases with k:
//
//   QuantileRounding::up    smallest integer k >= 0 with CDF(k) >= P, that is
//                           CDF(k-1) < P <= CDF(k); equals max(0, ceil(x*)).
//                           The textbook discrete quantile (R qnbinom, scipy
//                           nbinom.ppf; Boost integer_round_up). The default.
//   QuantileRounding::down  largest integer k >= 0 with CDF(k) <= P, that is
//                           CDF(k) <= P < CDF(k+1); equals floor(x*), clamped to 0
//                           when P < CDF(0). Boost integer_round_down. This is
//                           the convention of the .NET document's quantile table.
//   QuantileRounding::real  x* itself, in (-1, inf) (it rounds to -1 in double
//                           when P is far below CDF(0)).
//
// Boost's default, integer_round_outwards, mixes the two (down below the median,
// up above it) and is not offered: the rule here never depends on P's side.
//
// Inclusive/exclusive ends: with `up` at both ends, the inclusive interval
// [quantile(a), quantile_complement(a)] leaves at most a in each tail:
// P(X < lower) = CDF(lower-1) < a and P(X > upper) = 1 - CDF(upper) <= a.
// With `down`, the lower end is one wider (still inclusive-safe) while the upper
// tail P(X > upper) can exceed a by less than one pmf term; read that interval
// as lower < X <= upper+1 for exact tail guarantees.
//
// Integers above 2^52 are not all representable next to each other in a double,
// so when x* >= 2^52 every rounding returns x* unrounded.
//
// Bad parameters and any Boost error surface as allocsim::InputError.
#include <cmath>
#include <cstdint>
#include <string>

namespace allocsim::interval {

enum class QuantileRounding { up, down, real };
const char* rounding_name(QuantileRounding rounding);  // "up", "down", "real"

// Failures before the `successes`-th success, each trial succeeding with
// probability `p`. successes >= 1 and 0 < p < 1, else InputError.
class NegativeBinomial {
 public:
  NegativeBinomial(std::int64_t successes, double p);
  std::int64_t successes() const { return successes_; }
  double p() const { return p_; }

 private:
  std::int64_t successes_;
  double p_;
};

// "negative binomial (s=8, p=9.76562e-06)", for messages.
std::string to_string(const NegativeBinomial& distribution);

// P(X <= failures); `failures` must be a whole number >= 0.
double cdf(const NegativeBinomial& distribution, double failures);
// P(X > failures), accurate in the upper tail.
double cdf_complement(const NegativeBinomial& distribution, double failures);

// The quantile for lower-tail probability P in (0, 1).
double quantile(const NegativeBinomial& distribution, double probability, QuantileRounding rounding);
// The quantile for upper-tail probability Q = 1 - P in (0, 1); the integer
// conventions read CDF(k) >= 1 - Q as P(X > k) <= Q, so Q = 1e-300 works.
double quantile_complement(const NegativeBinomial& distribution, double upper_tail_probability,
                           QuantileRounding rounding);

// Argument checks shared with the approximate evaluations; both throw InputError.
void require_whole_failures(double failures);                         // k in {0, 1, ...}
void require_open_probability(double probability, const char* name);  // 0 < P < 1

// Above this every rounding returns the real-valued quantile (see the top).
inline constexpr double kLargestRoundedQuantile = 4503599627370496.0;  // 2^52

// Smallest integer k >= 0 with at_least(k) true, for a predicate that is false
// then true as k grows; searches outwards from `guess`, then bisects.
template <class Predicate>
double smallest_integer_where(Predicate at_least, double guess) {
  double above = std::fmax(0.0, std::floor(guess));  // at_least(above) holds
  double below = -1.0;                               // at_least(below) fails; -1 = none
  double step = 1.0;
  if (at_least(above)) {
    for (double candidate = above - step; candidate >= 0.0 && at_least(candidate); candidate = above - step) {
      above = candidate;
      step *= 2.0;
    }
    below = std::fmax(-1.0, above - step);
  } else {
    below = above;
    for (above = below + step; !at_least(above); above = below + step) {
      below = above;
      step *= 2.0;
    }
  }
  while (above - below > 1.0) {
    const double middle = std::floor(below + (above - below) / 2.0);
    (at_least(middle) ? above : below) = middle;
  }
  return above;
}

// Applies `rounding` to a real-valued quantile x* of a distribution on the
// integers >= 0 whose CDF is seen through two monotone predicates:
// reaches(k) = "CDF(k) >= P" and passes(k) = "CDF(k) > P".
template <class Reaches, class Passes>
double round_quantile(double real_quantile, QuantileRounding rounding, Reaches reaches, Passes passes) {
  if (rounding == QuantileRounding::real || real_quantile >= kLargestRoundedQuantile) {
    return real_quantile;
  }
  if (rounding == QuantileRounding::up) {
    return smallest_integer_where(reaches, real_quantile);
  }
  return std::fmax(0.0, smallest_integer_where(passes, real_quantile) - 1.0);
}

}  // namespace allocsim::interval
