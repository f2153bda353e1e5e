#pragma once
// Where each estimator's registers sit (RegisterLayout) and the rows Scheme::weigh
// writes them into (RegisterRows), which check that the two agree.
#include <cstddef>
#include <span>
#include <vector>

#include "allocsim/sampler/scheme.h"

namespace allocsim {

// Where each estimator's registers sit in one observation's row of contributions
// (Scheme::weigh) and in a group's sums: estimator 0's first, then estimator 1's, ...
// The engine lays out its buffers with it; a scheme's weigh checks it (RegisterRows).
class RegisterLayout {
 public:
  explicit RegisterLayout(const std::vector<EstimatorSpec>& estimators);
  std::size_t width() const { return first_.back(); }
  std::size_t first(std::size_t estimator) const { return first_[estimator]; }
  std::size_t count(std::size_t estimator) const { return first_[estimator + 1] - first_[estimator]; }
  // Estimator e's registers within a row (or a group's sums) laid out like this.
  std::span<const double> of(std::size_t estimator, const double* row) const {
    return {row + first_[estimator], count(estimator)};
  }

 private:
  std::vector<std::size_t> first_;  // per estimator, then the width
};

// Estimator e's estimate from its registers summed over a group: the sum itself for a
// linear estimator (one register), Scheme::finalize of the sums otherwise.
inline double estimate_from_registers(const Scheme& scheme, std::size_t estimator, std::span<const double> sums) {
  return sums.size() == 1 ? sums[0] : scheme.finalize(estimator, sums);
}

// Throws std::logic_error (an internal error): a scheme writes `width` registers per
// observation but was handed `size` registers for `observations` observations.
[[noreturn]] void register_width_mismatch(std::size_t width, std::size_t size, std::size_t observations);

// The rows Scheme::weigh fills, one per observation. W is the scheme's number of
// registers: a compile-time constant (the end of its enum of named registers) where
// its estimators are fixed, std::dynamic_extent with the width given where they
// depend on its parameters. Built once per weigh call, it checks the width against
// what the caller allocated from estimators() (RegisterLayout).
template <std::size_t W = std::dynamic_extent>
class RegisterRows {
 public:
  RegisterRows(std::span<double> contributions, std::size_t observations, std::size_t width = W)
      : data_(contributions.data()), width_(width) {
    static_assert(W == std::dynamic_extent || W > 0, "a scheme writes at least one register");
    if (width == std::dynamic_extent || contributions.size() != observations * width) {
      register_width_mismatch(width, contributions.size(), observations);
    }
  }
  std::span<double, W> operator[](std::size_t o) const {
    if constexpr (W == std::dynamic_extent) {
      return {data_ + o * width_, width_};
    } else {
      return std::span<double, W>(data_ + o * W, W);
    }
  }

 private:
  double* data_;
  std::size_t width_;
};

}  // namespace allocsim
