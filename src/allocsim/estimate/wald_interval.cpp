#include "allocsim/estimate/wald_interval.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>

namespace allocsim {

double normal_two_sided_z(double level) {
  // The engine asks for one level for every group of every replication; the
  // quantile (boost's erf_inv, in long double) cost more than the rest of an
  // interval. The last level's z is kept per thread: the same value, computed once.
  thread_local double last_level = std::numeric_limits<double>::quiet_NaN();
  thread_local double last_z = 0;
  if (level != last_level) {
    last_z = boost::math::quantile(boost::math::normal_distribution<double>(), 0.5 + level / 2);
    last_level = level;
  }
  return last_z;
}

Interval wald_interval(double estimate, double variance_estimate, double level) {
  const double half = normal_two_sided_z(level) * std::sqrt(std::max(0.0, variance_estimate));
  return {estimate - half, estimate + half};
}

}  // namespace allocsim
