#pragma once
// What the engine keeps per (scheme, estimator, group) across replications: the
// moments of the error (estimate - truth), of the absolute relative error, and of
// the absolute relative error over the replications with at least one sample in
// the group. Errors, not raw estimates, so precision is not lost when the error
// is small next to the truth. The engine fills them a block of replications at a
// time (engine/scheme_evaluator.cpp).
#include <cmath>
#include <cstdint>

#include "allocsim/stats/moments.h"

namespace allocsim {

struct ErrorAccumulator {
  Moments error;
  Moments abs_relative_error;
  Moments abs_relative_error_given_any;  // replications with >= 1 sample only

  // |error| / truth, and 0 where the truth is 0.
  static double abs_relative(double error, double truth) { return truth != 0 ? std::fabs(error) / truth : 0.0; }

  void merge(const ErrorAccumulator& other) {
    error.merge(other.error);
    abs_relative_error.merge(other.abs_relative_error);
    abs_relative_error_given_any.merge(other.abs_relative_error_given_any);
  }

  std::uint64_t replications() const { return error.count(); }
  std::uint64_t replications_with_sample() const { return abs_relative_error_given_any.count(); }
};

}  // namespace allocsim
