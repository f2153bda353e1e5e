#include "allocsim/conformance/count_distribution.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace allocsim {
namespace {

void trim(CountDistribution& d) {
  auto& p = d.probability;
  while (!p.empty() && p.back() < kNegligibleProbability) p.pop_back();
  std::size_t lead = 0;
  while (lead + 1 < p.size() && p[lead] < kNegligibleProbability) ++lead;
  if (lead > 0) {
    p.erase(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(lead));
    d.first += lead;
  }
}

CountDistribution convolve(const CountDistribution& a, const CountDistribution& b) {
  CountDistribution out;
  out.first = a.first + b.first;
  out.probability.assign(a.probability.size() + b.probability.size() - 1, 0.0);
  for (std::size_t i = 0; i < a.probability.size(); ++i) {
    for (std::size_t j = 0; j < b.probability.size(); ++j)
      out.probability[i + j] += a.probability[i] * b.probability[j];
  }
  trim(out);
  return out;
}

}  // namespace

CountDistribution poisson_binomial(std::span<const double> pi) {
  CountDistribution d{0, {1.0}};
  for (double p : pi) {
    d.probability.push_back(0.0);
    for (std::size_t k = d.probability.size() - 1; k > 0; --k) {
      d.probability[k] = d.probability[k] * (1 - p) + d.probability[k - 1] * p;
    }
    d.probability[0] *= 1 - p;
    trim(d);
  }
  return d;
}

CountDistribution empirical_distribution(std::span<const double> counts) {
  std::map<std::uint64_t, double> histogram;
  for (double c : counts) histogram[static_cast<std::uint64_t>(std::llround(c))] += 1;
  CountDistribution d;
  if (histogram.empty()) return d;
  d.first = histogram.begin()->first;
  d.probability.assign(histogram.rbegin()->first - d.first + 1, 0.0);
  const double n = static_cast<double>(counts.size());
  for (const auto& [count, times] : histogram) d.probability[count - d.first] = times / n;
  return d;
}

CountDistribution pooled_distribution(const CountDistribution& one_run, std::uint64_t runs) {
  if (one_run.empty()) return one_run;
  CountDistribution result{0, {1.0}};
  CountDistribution power = one_run;
  // Binary exponentiation: the distribution of 2^b runs, squared b times.
  for (std::uint64_t left = runs; left > 0; left >>= 1) {
    if (left & 1) result = convolve(result, power);
    if (left > 1) power = convolve(power, power);
  }
  return result;
}

double two_sided_p_value(const CountDistribution& distribution, std::uint64_t observed) {
  const auto& p = distribution.probability;
  if (observed < distribution.first || observed - distribution.first >= p.size()) return 0.0;
  const std::size_t at = observed - distribution.first;
  double lower = 0, upper = 0;
  for (std::size_t k = 0; k <= at; ++k) lower += p[k];
  for (std::size_t k = at; k < p.size(); ++k) upper += p[k];
  return std::min(1.0, 2 * std::min(lower, upper));
}

}  // namespace allocsim
