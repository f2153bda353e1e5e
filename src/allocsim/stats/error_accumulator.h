#pragma once
// What the engine keeps per (scheme, estimator, group) across replications: the
// moments of the error (estimate - truth), of the absolute relative error, and of
// the absolute relative error over the replications with at least one sample in
// the group. Errors, not raw estimates, so precision is not lost when the error
// is small next to the truth.
#include <cstdint>

#include "allocsim/stats/moments.h"

namespace allocsim {

struct ErrorAccumulator {
  Moments error;
  Moments abs_relative_error;
  Moments abs_relative_error_given_any;  // replications with >= 1 sample only

  void add(double estimate, double truth, bool any_sample) {
    const double err = estimate - truth;
    const double rel = truth != 0 ? std::fabs(err) / truth : 0.0;
    error.add(err);
    abs_relative_error.add(rel);
    if (any_sample) abs_relative_error_given_any.add(rel);
  }

  void merge(const ErrorAccumulator& other) {
    error.merge(other.error);
    abs_relative_error.merge(other.abs_relative_error);
    abs_relative_error_given_any.merge(other.abs_relative_error_given_any);
  }

  std::uint64_t replications() const { return error.count(); }
  std::uint64_t replications_with_sample() const { return abs_relative_error_given_any.count(); }
};

}  // namespace allocsim
