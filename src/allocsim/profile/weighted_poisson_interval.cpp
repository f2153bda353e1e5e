#include "allocsim/profile/weighted_poisson_interval.h"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>

#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

// The gamma of mean `mean` and variance `variance` is (variance / (2 mean)) times a
// chi-squared with 2 mean^2 / variance degrees of freedom; its `p` quantile.
double gamma_quantile(double mean, double variance, double p) {
  const boost::math::chi_squared chi2(2.0 * mean * mean / variance);
  return variance / (2.0 * mean) * boost::math::quantile(chi2, p);
}

}  // namespace

WeightedInterval weighted_poisson_interval(std::span<const WeightedCount> counts, double level) {
  if (counts.empty()) throw InputError("a weighted sum needs at least one count");
  if (!(level > 0 && level < 1)) throw InputError("the confidence level must be in (0, 1)");
  double y = 0;
  double v = 0;
  double largest_weight = 0;
  for (const WeightedCount& c : counts) {
    if (!(c.weight > 0) || !std::isfinite(c.weight)) throw InputError("a count's weight must be > 0");
    if (!(c.count >= 0) || !std::isfinite(c.count)) throw InputError("a count must be >= 0");
    y += c.weight * c.count;
    v += c.weight * c.weight * c.count;
    largest_weight = std::max(largest_weight, c.weight);
  }
  const double tail = (1.0 - level) / 2.0;
  WeightedInterval result;
  result.estimate = y;
  result.lower = y > 0 ? gamma_quantile(y, v, tail) : 0.0;
  result.upper = gamma_quantile(y + largest_weight, v + largest_weight * largest_weight, 1.0 - tail);
  return result;
}

}  // namespace allocsim::profile
