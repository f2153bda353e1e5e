#pragma once
// Whether two entries' bytes differ by more than sampling noise: a two-sided p-value
// for the hypothesis that both hold the same true bytes B.
//
// Where both entries' samples are (close to) Poisson, the conditional test of two
// Poisson means (Przyborowski and Wilenski 1940, Biometrika 31:313): entry i's
// samples are Poisson(B w_i), w_i = samples_per_byte(s_i), so given the m = k_i + k_j
// samples of both, k_i is Binomial(m, pi) with pi = w_i / (w_i + w_j) whatever B is,
// and p = min(1, 2 min(P(X <= k_i), P(X >= k_i))). It is exact for the byte-rate
// model, and for the per-allocation models while each allocation's p(s) is small
// (Binomial(B/s, p) against Poisson(B p / s): the variances differ by the factor
// 1 - p, at most kPoissonLimit).
//
// Elsewhere (large objects sampled almost surely, pass-through, unsampled profiles)
// the Poisson approximation fails: two entries each known to the byte could read as
// "cannot tell apart". There the test is the overlap of the entries' own exact
// intervals: if both hold B, each interval at level 1 - a/2 covers it with
// probability at least 1 - a/2, so both cover it, and overlap, with probability at
// least 1 - a. The p-value is the smallest a at which the intervals are disjoint,
// found by bisection on log a down to kSmallestPValue (a valid, conservative test).
#include <cstddef>
#include <string>

#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {

// Largest p(s) for which the conditional Poisson test is used.
inline constexpr double kPoissonLimit = 0.05;

// Smallest p-value the overlap test states; a smaller one prints as "< 1e-12".
inline constexpr double kSmallestPValue = 1e-12;

double equal_bytes_p_value(const HeapProfile& profile, std::size_t first, std::size_t second);

// A p-value as tables print it: "-" for none (negative), "<1e-12" at or below
// kSmallestPValue, else three significant digits.
std::string p_value_text(double p);

}  // namespace allocsim::profile
