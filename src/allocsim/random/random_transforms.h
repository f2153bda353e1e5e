#pragma once
// Transforms from uniform draws u in (0, 1] to the distributions the samplers and
// generators need. They take u as an argument, so tests can script exact values.
// Every logarithm of a draw is portable_log's, never libm's: the same bits on every
// machine (portable_log.h says why).
#include <cmath>
#include <cstdint>
#include <limits>

#include "allocsim/random/portable_log.h"

namespace allocsim {

// Exponential with the given mean: -mean * ln(u). u in (0,1] gives [0, inf). The
// second form takes ln u already drawn (log_uniform_batch.h): the same bits.
inline double exponential_from_log_uniform(double log_u, double mean) { return -mean * log_u; }
inline double exponential_from_uniform(double u, double mean) {
  return exponential_from_log_uniform(portable_log(u), mean);
}

// Number of Bernoulli(p) trials up to and including the first success, on {1, 2, ...}:
// floor(ln u / ln(1-p)) + 1. Saturates at uint64 max instead of overflowing. For a
// fixed p, ln(1-p) is computed once (the same value, so the same draws).
class GeometricTrials {
 public:
  explicit GeometricTrials(double p) : certain_(p >= 1.0), log_q_(certain_ ? 0.0 : std::log1p(-p)) {}
  std::uint64_t operator()(double u) const {
    if (certain_) return 1;
    const double failures = std::floor(portable_log(u) / log_q_);
    if (!(failures < 0x1.0p63)) return std::numeric_limits<std::uint64_t>::max();
    return static_cast<std::uint64_t>(failures) + 1;
  }

 private:
  bool certain_;
  double log_q_;
};

inline std::uint64_t geometric_trials_from_uniform(double u, double p) { return GeometricTrials(p)(u); }

// Standard normal from two uniforms (Box-Muller, first output).
inline double normal_from_uniforms(double u1, double u2) {
  constexpr double two_pi = 6.283185307179586476925286766559;
  return std::sqrt(-2.0 * portable_log(u1)) * std::cos(two_pi * u2);
}

}  // namespace allocsim
