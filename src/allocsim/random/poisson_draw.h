#pragma once
// Poisson(lambda) variates from uniform draws, exact in distribution: inversion by
// sequential search for lambda < 10, and for lambda >= 10 the transformed rejection
// with squeeze of W. Hoermann, "The transformed rejection method for generating
// Poisson random variables", Insurance: Mathematics and Economics 12 (1993) 39-45
// (algorithm PTRS, the constants of its Table 1; NumPy's random_poisson_ptrs
// implements the same). Each PTRS attempt takes two uniforms; about 1.1 attempts
// per variate at large lambda. The uniforms come from a callable, in (0, 1].
#include <cmath>
#include <cstdint>

namespace allocsim {

class PoissonDraw {
 public:
  explicit PoissonDraw(double lambda)
      : lambda_(lambda),
        exp_minus_lambda_(std::exp(-lambda)),
        log_lambda_(std::log(lambda)),
        b_(0.931 + 2.53 * std::sqrt(lambda)),
        a_(-0.059 + 0.02483 * b_),
        log_inv_alpha_(std::log(1.1239 + 1.1328 / (b_ - 3.4))),
        v_r_(0.9277 - 3.6224 / (b_ - 2)) {}

  template <class Uniform>
  std::uint64_t operator()(Uniform&& uniform) const {
    return lambda_ < 10 ? by_inversion(uniform) : by_transformed_rejection(uniform);
  }

 private:
  // P(X <= k) accumulated until it passes u.
  template <class Uniform>
  std::uint64_t by_inversion(Uniform& uniform) const {
    const double u = uniform();
    std::uint64_t k = 0;
    double p = exp_minus_lambda_, cdf = p;
    while (u > cdf && p > 0) {
      ++k;
      p *= lambda_ / static_cast<double>(k);
      cdf += p;
    }
    return k;
  }

  template <class Uniform>
  std::uint64_t by_transformed_rejection(Uniform& uniform) const {
    for (;;) {
      const double u = uniform() - 0.5;
      const double v = uniform();
      const double us = 0.5 - std::fabs(u);
      const double k = std::floor((2 * a_ / us + b_) * u + lambda_ + 0.43);
      if (us >= 0.07 && v <= v_r_) return static_cast<std::uint64_t>(k);
      if (k < 0 || (us < 0.013 && v > us)) continue;
      if (std::log(v) + log_inv_alpha_ - std::log(a_ / (us * us) + b_) <=
          -lambda_ + k * log_lambda_ - std::lgamma(k + 1)) {
        return static_cast<std::uint64_t>(k);
      }
    }
  }

  double lambda_, exp_minus_lambda_, log_lambda_;
  double b_, a_, log_inv_alpha_, v_r_;  // PTRS's constants for this lambda
};

}  // namespace allocsim
