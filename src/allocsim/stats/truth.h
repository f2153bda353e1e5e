#pragma once
// Exact bytes and counts per group, computed once per trace: the values every
// estimate is compared with.
#include <functional>
#include <vector>

#include "allocsim/sampler/scheme.h"
#include "allocsim/stats/groups.h"

namespace allocsim {

class Truth {
 public:
  // `allocated_size(i)` is the allocator's size for allocation i, as the scheme
  // being evaluated models it.
  Truth(const Trace& trace, const GroupIndex& groups,
        const std::function<std::uint64_t(std::size_t)>& allocated_size);

  const GroupTotals& at(std::uint32_t slot, Window window) const {
    return totals_[slot * kWindowCount + static_cast<std::size_t>(window)];
  }
  static double value(const GroupTotals& totals, Quantity quantity);

 private:
  std::vector<GroupTotals> totals_;
};

}  // namespace allocsim
