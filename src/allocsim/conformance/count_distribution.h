#pragma once
// The exact distribution of a site's sampled count, for the conformance verdict's
// count test: per run (a sum of independent Bernoulli(pi_i) where the model samples
// allocations independently, otherwise the histogram of its Monte Carlo replays), and
// pooled over K independent runs (the K-fold convolution). Probabilities below
// kNegligibleProbability are trimmed from both ends: a count that lands there gets a
// p-value of 0, far below any threshold the verdict uses.
#include <cstdint>
#include <span>
#include <vector>

namespace allocsim {

inline constexpr double kNegligibleProbability = 1e-300;

struct CountDistribution {
  std::uint64_t first = 0;  // the count of probability[0]
  std::vector<double> probability;

  bool empty() const { return probability.empty(); }
};

// Sum of independent Bernoulli(pi_i): the Poisson-binomial distribution, by the
// recursion P_{i}(k) = P_{i-1}(k) (1 - pi_i) + P_{i-1}(k - 1) pi_i.
CountDistribution poisson_binomial(std::span<const double> pi);

// The empirical distribution of whole-number counts (Monte Carlo replays).
CountDistribution empirical_distribution(std::span<const double> counts);

// The distribution of the sum of `runs` independent draws (empty stays empty).
CountDistribution pooled_distribution(const CountDistribution& one_run, std::uint64_t runs);

// Two-sided p-value of an observed count: twice the smaller tail, at most 1
// (each tail includes the observed count); 0 outside the support or for an empty
// distribution.
double two_sided_p_value(const CountDistribution& distribution, std::uint64_t observed);

}  // namespace allocsim
