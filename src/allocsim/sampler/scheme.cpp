#include "allocsim/sampler/scheme.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

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

RegisterLayout::RegisterLayout(const std::vector<EstimatorSpec>& estimators) : first_{0} {
  for (const EstimatorSpec& spec : estimators) first_.push_back(first_.back() + spec.registers);
}

void register_width_mismatch(std::size_t width, std::size_t size, std::size_t observations) {
  throw std::logic_error("scheme writes " + std::to_string(width) + " registers per observation, but " +
                         std::to_string(size) + " were laid out for " + std::to_string(observations) +
                         " observations");
}

}  // namespace allocsim
