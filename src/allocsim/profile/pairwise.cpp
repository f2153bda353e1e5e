#include "allocsim/profile/pairwise.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>

namespace allocsim::profile {

double equal_bytes_p_value(const HeapProfile& profile, std::size_t first, std::size_t second) {
  const ProfileEntry& a = profile.entries[first];
  const ProfileEntry& b = profile.entries[second];
  const double weight_a = samples_per_byte(profile.model, a.object_size);
  const double weight_b = samples_per_byte(profile.model, b.object_size);
  const double trials = a.samples + b.samples;
  if (trials == 0) return 1.0;
  const boost::math::binomial_distribution<double> split(trials, weight_a / (weight_a + weight_b));
  const double at_most = boost::math::cdf(split, a.samples);
  const double at_least = a.samples == 0 ? 1.0 : boost::math::cdf(boost::math::complement(split, a.samples - 1));
  return std::min(1.0, 2.0 * std::min(at_most, at_least));
}

}  // namespace allocsim::profile
