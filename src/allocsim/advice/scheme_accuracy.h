#pragma once
// Closed-form accuracy of a scheme's bytes estimator (estimator 0) on a trace,
// from its per-allocation theory (Scheme::allocation_theory): allocations are
// sampled independently, so bias, variance and ln P(no sample) add up over any
// group, and the expected number of sampled allocations is sum_i (1 - P_i(none)).
#include <cstdint>
#include <vector>

#include "allocsim/sampler/scheme.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

struct GroupAccuracy {
  double truth = 0;  // bytes (as the estimator measures them)
  double bias = 0;
  double variance = 0;
  double log_p_none = 0;  // ln P(no allocation of the group sampled)

  double rmse() const;
  // E|estimate - truth| / truth with the estimate taken as normal (folded normal
  // mean); a good approximation once the group gets several samples.
  double normal_mape() const;
  double p_seen() const;  // 1 - P(no sample)
};

struct SchemeAccuracy {
  std::vector<std::uint64_t> measured;  // Z_i: the bytes the estimator counts
  double expected_samples = 0;          // sampled allocations
  GroupAccuracy total;
  std::vector<GroupAccuracy> stacks;        // by stack id
  std::vector<double> probability;          // P(sampled) per allocation
  std::vector<double> allocation_variance;  // Var_i per allocation
};

// Throws std::invalid_argument when estimator 0 is not a bytes estimator with
// per-allocation theory.
SchemeAccuracy scheme_accuracy(const Scheme& scheme, const Trace& trace);

}  // namespace allocsim
