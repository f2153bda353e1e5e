#pragma once
// The closed-form theory a scheme offers for one estimator (Scheme::theory): each
// allocation's AllocationTheory where allocations are sampled independently, and
// the metrics of a group from its truth and those sums.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "allocsim/estimate/allocation_theory.h"
#include "allocsim/estimate/quantity.h"
#include "allocsim/estimate/theory_values.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

// The closed-form theory of one estimator (Scheme::theory). Its functions may read
// the scheme: valid while the scheme lives.
struct EstimatorTheory {
  // Receives a block of consecutive allocations' AllocationTheory: block[j] is
  // allocation first + j's.
  using BlockVisitor = std::function<void(std::size_t first, std::span<const AllocationTheory> block)>;
  // Blocks of this many allocations (the last may be shorter): a trace of 10^9
  // allocations is summed in 96 KiB of theory, not 24 GB.
  static constexpr std::size_t kBlock = 4096;

  // Visits the AllocationTheory of every allocation of a trace, block by block in
  // trace order; null when the estimator has none (allocations not sampled
  // independently).
  std::function<void(const Trace&, const BlockVisitor&)> allocations;
  // The metrics of a group from its truth and its sums of `allocations` (zero sums
  // without them); null: the bias, variance and P(>= 1 sample) the sums give, or
  // nothing without them.
  std::function<TheoryValues(const GroupTotals&, const AllocationTheory&)> group;

  bool per_allocation() const { return static_cast<bool>(allocations); }
  TheoryValues of_group(const GroupTotals& truth, const AllocationTheory& sums) const;
  // Every allocation's AllocationTheory in one vector, in trace order (24 bytes per
  // allocation: for callers that hold the whole trace's theory anyway).
  std::vector<AllocationTheory> all_allocations(const Trace& trace) const;
};

// Visits f(0) .. f(n - 1) in blocks of EstimatorTheory::kBlock (a buffer reused for
// every block).
template <class F>
void visit_in_blocks(std::size_t n, F f, const EstimatorTheory::BlockVisitor& visit) {
  std::vector<AllocationTheory> block(std::min(n, EstimatorTheory::kBlock));
  for (std::size_t first = 0; first < n; first += block.size()) {
    const std::size_t count = std::min(block.size(), n - first);
    for (std::size_t j = 0; j < count; ++j) block[j] = f(first + j);
    visit(first, std::span<const AllocationTheory>(block.data(), count));
  }
}

// An estimator theory from the AllocationTheory of one allocation, f(trace, i).
template <class F>
EstimatorTheory per_allocation_theory(F f) {
  return {[f](const Trace& trace, const EstimatorTheory::BlockVisitor& visit) {
            visit_in_blocks(
                trace.size(), [&](std::size_t i) { return f(trace, i); }, visit);
          },
          {}};
}

// The same from a scheme's member of(estimator, trace, i).
template <class S>
EstimatorTheory per_allocation_theory(const S* scheme,
                                      AllocationTheory (S::*of)(std::size_t, const Trace&, std::size_t) const,
                                      std::size_t estimator) {
  return per_allocation_theory(
      [scheme, of, estimator](const Trace& trace, std::size_t i) { return (scheme->*of)(estimator, trace, i); });
}

}  // namespace allocsim
