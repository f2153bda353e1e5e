#pragma once
// Running central moments (count, mean, M2, M3, M4) with an exact-order merge.
//
// Update and merge follow Pébay (2008), "Formulas for robust, one-pass parallel
// computation of covariances and arbitrary-order statistical moments", eq. 2.1-2.4:
// with delta = mean_b - mean_a and n = n_a + n_b,
//   M2 = M2a + M2b + delta^2 na nb / n
//   M3 = M3a + M3b + delta^3 na nb (na - nb) / n^2 + 3 delta (na M2b - nb M2a) / n
//   M4 = M4a + M4b + delta^4 na nb (na^2 - na nb + nb^2) / n^3
//        + 6 delta^2 (na^2 M2b + nb^2 M2a) / n^2 + 4 delta (na M3b - nb M3a) / n
// Merging in a fixed order gives the same bits whatever the thread count.
#include <cmath>
#include <cstdint>

namespace allocsim {

class Moments {
 public:
  void add(double x) {
    Moments one;
    one.n_ = 1;
    one.mean_ = x;
    merge(one);
  }

  void merge(const Moments& b) {
    if (b.n_ == 0) return;
    if (n_ == 0) {
      *this = b;
      return;
    }
    const double na = static_cast<double>(n_), nb = static_cast<double>(b.n_);
    const double n = na + nb;
    const double delta = b.mean_ - mean_;
    const double d_n = delta / n;
    const double d2 = delta * delta;
    const double m4 = m4_ + b.m4_ + d2 * d2 * na * nb * (na * na - na * nb + nb * nb) / (n * n * n) +
                      6.0 * d2 * (na * na * b.m2_ + nb * nb * m2_) / (n * n) + 4.0 * d_n * (na * b.m3_ - nb * m3_);
    const double m3 = m3_ + b.m3_ + d2 * delta * na * nb * (na - nb) / (n * n) + 3.0 * d_n * (na * b.m2_ - nb * m2_);
    const double m2 = m2_ + b.m2_ + d2 * na * nb / n;
    mean_ += d_n * nb;
    m2_ = m2;
    m3_ = m3;
    m4_ = m4;
    n_ += b.n_;
  }

  std::uint64_t count() const { return n_; }
  double mean() const { return mean_; }
  // Unbiased sample variance (divides by n - 1).
  double variance() const { return n_ > 1 ? m2_ / static_cast<double>(n_ - 1) : 0.0; }
  double sd() const { return std::sqrt(variance()); }
  double standard_error() const { return n_ > 0 ? sd() / std::sqrt(static_cast<double>(n_)) : 0.0; }
  // Standard error of the sample variance, sqrt((mu4 - sigma^4 (n-3)/(n-1)) / n),
  // with mu4 and sigma^2 estimated from the sample.
  double variance_standard_error() const {
    if (n_ < 4) return 0.0;
    const double n = static_cast<double>(n_);
    const double mu4 = m4_ / n;
    const double var = variance();
    const double v = (mu4 - var * var * (n - 3.0) / (n - 1.0)) / n;
    return v > 0 ? std::sqrt(v) : 0.0;
  }
  double raw_m2() const { return m2_; }

  // The exact state, for files that carry accumulators between processes
  // (engine/partial_state.h).
  struct State {
    std::uint64_t n = 0;
    double mean = 0, m2 = 0, m3 = 0, m4 = 0;
  };
  State state() const { return {n_, mean_, m2_, m3_, m4_}; }
  static Moments from_state(const State& s) {
    Moments m;
    m.n_ = s.n;
    m.mean_ = s.mean;
    m.m2_ = s.m2;
    m.m3_ = s.m3;
    m.m4_ = s.m4;
    return m;
  }

 private:
  std::uint64_t n_ = 0;
  double mean_ = 0, m2_ = 0, m3_ = 0, m4_ = 0;
};

}  // namespace allocsim
