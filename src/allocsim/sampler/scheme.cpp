#include "allocsim/sampler/scheme.h"

#include <cmath>

namespace allocsim {

const char* to_string(Quantity q) {
  switch (q) {
    case Quantity::requested_bytes: return "requested_bytes";
    case Quantity::allocated_bytes: return "allocated_bytes";
    case Quantity::count: return "count";
  }
  return "?";
}

const std::vector<IntervalSpec>& Scheme::intervals() const {
  static const std::vector<IntervalSpec> none;
  return none;
}

void Scheme::allocation_theories(std::size_t estimator, const Trace& trace, std::span<AllocationTheory> out) const {
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = allocation_theory(estimator, trace, i);
}

TheoryValues Scheme::theory(std::size_t estimator, const GroupTotals& /*truth*/,
                            const AllocationTheory& sums) const {
  TheoryValues t;
  if (!has_allocation_theory(estimator)) return t;
  t.bias = sums.bias;
  t.var = sums.variance;
  t.p_any_sample = -std::expm1(sums.log_p_none);
  return t;
}

}  // namespace allocsim
