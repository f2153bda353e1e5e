#pragma once
// Exact distributions of sums of independent scaled counts, sum_j w_j K_j with each
// K_j binomial or Poisson: what a site's estimate is under a sampling model (its
// samples at each size, scaled as the system scales them). Held as atoms (value,
// probability) sorted by value; the tails of each count beyond kNegligible of
// probability are dropped and their mass kept in `dropped`, so every probability
// read from the atoms is exact to within `dropped`.
#include <cstddef>
#include <optional>
#include <vector>

namespace allocsim::profile {

// A count's pmf is kept out to where it falls below this (the mass beyond is of the
// same order: the binomial and Poisson tails fall faster than geometrically there).
inline constexpr double kNegligible = 1e-22;

struct ScaledCounts {
  std::vector<double> values;         // increasing
  std::vector<double> probabilities;  // of each value
  double dropped = 0;                 // mass left out (a bound on every error)

  // P(X < x) and P(X > x) over the atoms.
  double below(double x) const;
  double above(double x) const;
  // P(scale X < lower or scale X > upper), compared as written (as a test compares
  // a scaled value with a band).
  double outside(double scale, double lower, double upper) const;
};

// w K for K ~ Binomial(n, p), 0 <= p <= 1, w > 0.
ScaledCounts scaled_binomial(double n, double p, double weight);
// w K for K ~ Poisson(mean), mean >= 0, w > 0.
ScaledCounts scaled_poisson(double mean, double weight);
// X + Y for independent X, Y; nothing when it would take more than `atom_limit`
// products (equal sums are merged afterwards).
std::optional<ScaledCounts> convolve(const ScaledCounts& x, const ScaledCounts& y, std::size_t atom_limit);

// The band [lower, upper] of atom values with P(X < lower) <= tail and
// P(X > upper) <= tail, as narrow as the atoms allow (lower the largest, upper the
// smallest value that does it).
struct Band {
  double lower = 0;
  double upper = 0;
};
Band central_band(const ScaledCounts& x, double tail);

}  // namespace allocsim::profile
