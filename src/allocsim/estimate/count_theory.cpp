#include "allocsim/estimate/count_theory.h"

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <cmath>

namespace allocsim {

TheoryValues poisson_scaled_count_theory(double lambda, double weight) {
  TheoryValues t;
  t.bias = 0.0;
  t.var = weight * weight * lambda;
  if (!(lambda > 0)) return t;
  const boost::math::poisson_distribution<double> poisson(lambda);
  const double mad = 2.0 * lambda * boost::math::pdf(poisson, std::floor(lambda));
  const double p_zero = std::exp(-lambda);
  t.p_any_sample = -std::expm1(-lambda);
  t.mape = mad / lambda;
  t.cmape = (mad - p_zero * lambda) / (lambda * *t.p_any_sample);
  return t;
}

TheoryValues binomial_scaled_count_theory(std::uint64_t n, double p, double weight) {
  TheoryValues t;
  const double nd = static_cast<double>(n);
  const double mean = nd * p;
  t.bias = 0.0;
  t.var = weight * weight * nd * p * (1.0 - p);
  if (n == 0 || !(p > 0)) return t;
  const double m = std::floor(mean) + 1.0;
  double mad = 0.0;
  if (m <= nd) {
    const boost::math::binomial_distribution<double> binomial(nd, p);
    mad = 2.0 * m * (1.0 - p) * boost::math::pdf(binomial, m);
  }
  const double p_zero = p >= 1.0 ? 0.0 : std::exp(nd * std::log1p(-p));
  t.p_any_sample = p >= 1.0 ? 1.0 : -std::expm1(nd * std::log1p(-p));
  t.mape = mad / mean;
  t.cmape = (mad - p_zero * mean) / (mean * *t.p_any_sample);
  return t;
}

}  // namespace allocsim
