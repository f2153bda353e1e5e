#include "allocsim/engine/theory_sums.h"

#include "allocsim/engine/scheme_evaluator.h"

namespace allocsim {

std::vector<AllocationTheory> sum_allocation_theory(const Trace& trace, const GroupIndex& groups,
                                                    const std::vector<Window>& windows, const Scheme& scheme) {
  const std::size_t E = scheme.estimators().size();
  const SlotLayout layout{windows.size(), E};
  std::vector<AllocationTheory> sums(layout.size(groups.slot_count()));
  for (std::size_t e = 0; e < E; ++e) {
    const EstimatorTheory estimator = scheme.theory(e);
    if (!estimator.per_allocation()) continue;
    // Summed block by block in trace order: each group's sums add the same terms
    // in the same order as over one vector of the whole trace.
    estimator.allocations(trace, [&](std::size_t first, std::span<const AllocationTheory> block) {
      for (std::size_t j = 0; j < block.size(); ++j) {
        const std::size_t i = first + j;
        const AllocationTheory& one = block[j];
        for (std::size_t w = 0; w < windows.size(); ++w) {
          if (!windows[w].contains(trace, i)) continue;
          for (std::size_t k = 0; k < groups.kind_count(); ++k) {
            AllocationTheory& sum = sums[layout.at(groups.slot_of(k, i), w, e)];
            sum.bias += one.bias;
            sum.variance += one.variance;
            sum.log_p_none += one.log_p_none;
          }
        }
      }
    });
  }
  return sums;
}

}  // namespace allocsim
