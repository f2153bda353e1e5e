#pragma once
// Closed-form pieces of one allocation's contribution to an estimate, for samplers
// under which allocations are sampled independently of each other (a Bernoulli
// process on bytes, or an independent trial per allocation). Summed over a group
// they give the group's exact bias, variance and P(>= 1 sample):
//   Bias(group) = sum_i bias_i,   Var(group) = sum_i variance_i,
//   P(no sample) = exp(sum_i log_p_none_i).
namespace allocsim {

struct AllocationTheory {
  double bias = 0;        // expected error of this allocation's contribution (e.g. -truth
                          // when it can never be sampled)
  double variance = 0;    // variance of the estimator's contribution of this allocation
  double log_p_none = 0;  // ln P(this allocation is not sampled)
};

}  // namespace allocsim
