#pragma once
// An interval for a weighted sum of independent Poisson counts, Y = sum_i w_i K_i
// with K_i ~ Poisson(mu_i), bounding E[Y] = sum_i w_i mu_i: the gamma method of Fay &
// Feuer (1997, "Confidence intervals for directly standardized rates: a method based
// on the gamma distribution", Statistics in Medicine 16:791-801). With y = sum w_i k_i,
// v = sum w_i^2 k_i (the unbiased variance estimate) and w_M = max_i w_i:
//   lower = v/(2y) chi2_quantile(a/2; 2y^2/v)                      (0 when y = 0)
//   upper = (v + w_M^2)/(2(y + w_M)) chi2_quantile(1 - a/2; 2(y + w_M)^2/(v + w_M^2))
// for a = 1 - level: a gamma matched to Y's estimated mean and variance, the upper one
// to those of Y plus one more count at the largest weight. With all weights equal it
// is Garwood's exact interval times the weight. With unequal weights it is not exact:
// Fay & Feuer found it conservative (coverage at least the level) in every setting of
// their simulation, and Tiwari, Clegg & Zou (2006, Statistical Methods in Medical
// Research 15:547-569) again, though often wider than needed; no proof bounds it. Its
// coverage at the rates pools meet is measured in tests/weighted_poisson_interval_test.cpp
// (docs/profiles.md).
#include <span>

namespace allocsim::profile {

struct WeightedCount {
  double weight = 0;  // > 0
  double count = 0;   // >= 0
};

struct WeightedInterval {
  double estimate = 0;  // y
  double lower = 0;
  double upper = 0;
};

// InputError for no counts, a weight <= 0 or a negative count, or a level outside (0, 1).
WeightedInterval weighted_poisson_interval(std::span<const WeightedCount> counts, double level);

}  // namespace allocsim::profile
