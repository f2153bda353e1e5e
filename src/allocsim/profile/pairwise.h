#pragma once
// Whether two entries' bytes differ by more than sampling noise. Under the null
// hypothesis that both hold the same true bytes B, entry i's samples are close to
// Poisson(B w_i), w_i = samples_per_byte(s_i) (exactly so for the byte-rate model; for
// the per-allocation models Binomial(B/s_i, p_i), Poisson when p_i is small), so given
// the m = k_i + k_j samples of both, k_i is Binomial(m, pi) with pi = w_i / (w_i + w_j)
// whatever B is: the conditional test of two Poisson means (Przyborowski and
// Wilenski 1940, Biometrika 31:313). The p-value is two-sided:
// min(1, 2 min(P(X <= k_i), P(X >= k_i))).
#include <cstddef>

#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {

double equal_bytes_p_value(const HeapProfile& profile, std::size_t first, std::size_t second);

}  // namespace allocsim::profile
