#include "allocsim/engine/theory_sums.h"

#include "allocsim/engine/scheme_evaluator.h"

namespace allocsim {

std::vector<AllocationTheory> sum_allocation_theory(const Trace& trace, const GroupIndex& groups,
                                                    const Scheme& scheme) {
  const std::size_t E = scheme.estimators().size();
  std::vector<AllocationTheory> sums(static_cast<std::size_t>(groups.slot_count()) * kWindowCount * E);
  for (std::size_t e = 0; e < E; ++e) {
    if (!scheme.has_allocation_theory(e)) continue;
    for (std::size_t i = 0; i < trace.size(); ++i) {
      const AllocationTheory one = scheme.allocation_theory(e, trace, i);
      const std::size_t windows = trace.live_at_end(i) ? 2 : 1;
      for (std::size_t k = 0; k < groups.kind_count(); ++k) {
        for (std::size_t w = 0; w < windows; ++w) {
          AllocationTheory& sum =
              sums[accumulator_index(E, groups.slot_of(k, i), static_cast<Window>(w), e)];
          sum.bias += one.bias;
          sum.variance += one.variance;
          sum.log_p_none += one.log_p_none;
        }
      }
    }
  }
  return sums;
}

}  // namespace allocsim
