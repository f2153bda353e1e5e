#include "allocsim/profile/scaled_counts.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <cmath>
#include <numeric>

namespace allocsim::profile {
namespace {

// The pmf from its mode outwards while it is above kNegligible, scaled by `weight`.
template <class Distribution>
ScaledCounts scaled_pmf(const Distribution& distribution, double mode, double last, double weight) {
  ScaledCounts result;
  std::vector<double> low_values, low_probabilities;
  for (double k = mode; k >= 0; --k) {
    const double p = boost::math::pdf(distribution, k);
    if (p < kNegligible) break;
    low_values.push_back(k * weight);
    low_probabilities.push_back(p);
  }
  result.values.assign(low_values.rbegin(), low_values.rend());
  result.probabilities.assign(low_probabilities.rbegin(), low_probabilities.rend());
  for (double k = mode + 1; k <= last; ++k) {
    const double p = boost::math::pdf(distribution, k);
    if (p < kNegligible) break;
    result.values.push_back(k * weight);
    result.probabilities.push_back(p);
  }
  // 1 - kept in double precision is the mass beyond the cut only to about 2^-53
  // (margins.h, kMinFalseFailure): never claimed smaller, even where kept rounds to 1.
  const double kept = std::accumulate(result.probabilities.begin(), result.probabilities.end(), 0.0);
  result.dropped = std::max(0x1p-53, 1.0 - kept);
  return result;
}

}  // namespace

double ScaledCounts::below(double x) const {
  const auto end = std::lower_bound(values.begin(), values.end(), x) - values.begin();
  return std::accumulate(probabilities.begin(), probabilities.begin() + end, 0.0);
}

double ScaledCounts::above(double x) const {
  const auto begin = std::upper_bound(values.begin(), values.end(), x) - values.begin();
  return std::accumulate(probabilities.begin() + begin, probabilities.end(), 0.0);
}

double ScaledCounts::outside(double scale, double lower, double upper) const {
  double sum = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (scale * values[i] < lower || scale * values[i] > upper) sum += probabilities[i];
  }
  return sum;
}

ScaledCounts scaled_binomial(double n, double p, double weight) {
  if (n == 0 || p == 0) return {{0.0}, {1.0}, 0.0};
  if (p >= 1) return {{n * weight}, {1.0}, 0.0};
  const boost::math::binomial_distribution<> distribution(n, p);
  return scaled_pmf(distribution, std::floor((n + 1) * p), n, weight);
}

ScaledCounts scaled_poisson(double mean, double weight) {
  if (mean == 0) return {{0.0}, {1.0}, 0.0};
  const boost::math::poisson_distribution<> distribution(mean);
  return scaled_pmf(distribution, std::floor(mean), INFINITY, weight);
}

std::optional<ScaledCounts> convolve(const ScaledCounts& x, const ScaledCounts& y, std::size_t atom_limit) {
  if (x.values.size() > atom_limit / std::max<std::size_t>(1, y.values.size())) return std::nullopt;
  std::vector<std::pair<double, double>> sums;
  sums.reserve(x.values.size() * y.values.size());
  for (std::size_t i = 0; i < x.values.size(); ++i) {
    for (std::size_t j = 0; j < y.values.size(); ++j) {
      sums.emplace_back(x.values[i] + y.values[j], x.probabilities[i] * y.probabilities[j]);
    }
  }
  std::sort(sums.begin(), sums.end());
  ScaledCounts result;
  for (const auto& [value, probability] : sums) {
    if (!result.values.empty() && result.values.back() == value) {
      result.probabilities.back() += probability;
    } else {
      result.values.push_back(value);
      result.probabilities.push_back(probability);
    }
  }
  // P(either left something out) <= the sum of what each left out.
  result.dropped = x.dropped + y.dropped;
  return result;
}

Band central_band(const ScaledCounts& x, double tail) {
  // lower: the largest value whose mass strictly below is within the tail.
  std::size_t low = 0;
  double below = 0;
  while (low + 1 < x.values.size() && below + x.probabilities[low] <= tail) below += x.probabilities[low++];
  std::size_t high = x.values.size() - 1;
  double above = 0;
  while (high > low && above + x.probabilities[high] <= tail) above += x.probabilities[high--];
  return {x.values[low], x.values[high]};
}

}  // namespace allocsim::profile
