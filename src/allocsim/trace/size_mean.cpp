#include "allocsim/trace/size_mean.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace allocsim {
namespace {

double weighted_mean(const std::vector<double>& weights, auto&& value_of) {
  double sum = 0, weight = 0;
  for (std::size_t j = 0; j < weights.size(); ++j) {
    sum += weights[j] * value_of(j);
    weight += weights[j];
  }
  return weight > 0 ? sum / weight : 0.0;
}

double mean_of(const ConstantSize& c) { return static_cast<double>(c.size); }

double mean_of(const SequenceSizes& s) {
  if (s.sizes.empty()) return 0.0;
  return std::accumulate(s.sizes.begin(), s.sizes.end(), 0.0) / static_cast<double>(s.sizes.size());
}

double mean_of(const UniformSize& u) { return (static_cast<double>(u.min) + static_cast<double>(u.max)) / 2; }

// X log-uniform on [a, b): E[X] = (b - a) / ln(b / a).
double mean_of(const LogUniformSize& l) {
  const double a = static_cast<double>(std::max<std::uint64_t>(l.min, 1)), b = static_cast<double>(l.max) + 1.0;
  return (b - a) / std::log(b / a) - 0.5;
}

// median * exp(sigma^2 / 2), the lognormal mean, at most max.
double mean_of(const LognormalSize& l) {
  return std::min(l.median * std::exp(l.sigma * l.sigma / 2), static_cast<double>(l.max));
}

// Pareto (scale s, shape a) conditioned on X <= m, kept = 1 - (s/m)^a:
// E[X] = a s (1 - (s/m)^(a-1)) / ((a - 1) kept), and s ln(m/s) / kept for a = 1.
double mean_of(const ParetoSize& p) {
  const double s = p.scale, a = p.shape, m = static_cast<double>(p.max);
  const double kept = -std::expm1(a * std::log(s / m));
  if (!(kept > 0)) return s;  // max == scale: every draw is the scale
  if (a == 1.0) return s * std::log(m / s) / kept;
  return a * s * -std::expm1((a - 1) * std::log(s / m)) / ((a - 1) * kept);
}

double mean_of(const HistogramSizes& h) {
  return weighted_mean(h.weights, [&](std::size_t j) { return static_cast<double>(h.sizes[j]); });
}

double mean_of(const BucketSizes& b) {
  return weighted_mean(b.weights, [&](std::size_t j) {
    return (static_cast<double>(b.ranges[j].lo) + static_cast<double>(b.ranges[j].hi)) / 2;
  });
}

double mean_of(const MixtureSizes& m) {
  return weighted_mean(m.weights, [&](std::size_t j) { return mean_size(m.components[j]); });
}

}  // namespace

double mean_size(const SizeDistribution& distribution) {
  return std::visit([](const auto& family) { return mean_of(family); }, distribution.family);
}

}  // namespace allocsim
