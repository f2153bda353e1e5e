#include "allocsim/estimate/wald_interval.h"

#include <boost/math/distributions/normal.hpp>
#include <cmath>

namespace allocsim {

double normal_two_sided_z(double level) {
  return boost::math::quantile(boost::math::normal_distribution<double>(), 0.5 + level / 2);
}

Interval wald_interval(double estimate, double variance_estimate, double level) {
  const double half = normal_two_sided_z(level) * std::sqrt(std::max(0.0, variance_estimate));
  return {estimate - half, estimate + half};
}

}  // namespace allocsim
