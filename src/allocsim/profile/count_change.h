#pragma once

// Is the change between two sampled heap profiles real? The exact conditional test
// for two Poisson counts, the issue-33 core of `allocsim diff`.
//
// Model: an entry's sample count in BASE is K1 ~ Poisson(lambda1 E1) and in NEW
// K2 ~ Poisson(lambda2 E2), where E1, E2 are the profiles' exposures (for a Poisson
// sampler with mean sampling interval R bytes, an entry of objects of size s has
// exposure proportional to 1/R: E = 1/R per byte allocated). Conditional on
// N = K1 + K2,
//     K1 | N ~ Binomial(N, p),  p = lambda1 E1 / (lambda1 E1 + lambda2 E2),
// and under H0 (lambda1 = lambda2) p = r = E1 / (E1 + E2). The test is exact
// (Lehmann & Romano, Testing Statistical Hypotheses, 4.5; Przyborowski & Wilenski 1940).
// Two-sided p-value: twice the smaller tail, capped at 1 (the "central" test, whose
// acceptance region is the Clopper-Pearson interval's: the test rejects at level a
// exactly when the 1-a interval for the ratio excludes 1).
// Ratio of rates rho = lambda2 / lambda1 = (1-p)/p * E1/E2; its interval is the
// Clopper-Pearson interval for p mapped through that decreasing function.
// Per-allocation Binomial models (sampled with probability q per object): the
// Poisson form holds when q is small (the Binomial(n, q) count is within q of the
// Poisson variance); with q near 1 the counts are nearly exact and the test is
// conservative.
// Family-wise rate over M entries: Holm's step-down adjustment (Holm 1979), which
// keeps P(any false "changed") <= alpha under any dependence between entries.

#include <cstdint>
#include <vector>

namespace allocsim::profile {

struct CountChange {
  double p_value = 1.0;      // two-sided, exact conditional
  double ratio = 0.0;        // point estimate of lambda2 / lambda1 (inf when K1 = 0 < K2)
  double ratio_lower = 0.0;  // Clopper-Pearson 1 - alpha bounds for lambda2 / lambda1
  double ratio_upper = 0.0;  // (inf when K1 = 0)
};

// Two-sided exact conditional test of lambda1 = lambda2 given counts k1 (BASE) and
// k2 (NEW) with exposures e1, e2 > 0; the interval is at level 1 - alpha.
CountChange compare_counts(std::uint64_t k1, std::uint64_t k2, double e1, double e2, double alpha);

// Clopper-Pearson 1 - alpha interval for a binomial proportion, k of n.
struct ProportionInterval {
  double lower = 0.0;
  double upper = 1.0;
};
ProportionInterval clopper_pearson(std::uint64_t k, std::uint64_t n, double alpha);

// Holm's step-down adjusted p-values (same order as the input); an entry is
// "changed" at family-wise level alpha when its adjusted p-value is <= alpha.
std::vector<double> holm_adjust(const std::vector<double>& p_values);

}  // namespace allocsim::profile
