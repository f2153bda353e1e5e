#include "allocsim/sampler/estimator_theory.h"

#include <cmath>

namespace allocsim {

TheoryValues EstimatorTheory::of_group(const GroupTotals& truth, const AllocationTheory& sums) const {
  if (group) return group(truth, sums);
  TheoryValues t;
  if (!per_allocation()) return t;
  t.bias = sums.bias;
  t.var = sums.variance;
  t.p_any_sample = -std::expm1(sums.log_p_none);
  return t;
}

std::vector<AllocationTheory> EstimatorTheory::all_allocations(const Trace& trace) const {
  std::vector<AllocationTheory> out(trace.size());
  allocations(trace, [&](std::size_t first, std::span<const AllocationTheory> block) {
    std::copy(block.begin(), block.end(), out.begin() + static_cast<std::ptrdiff_t>(first));
  });
  return out;
}

}  // namespace allocsim
