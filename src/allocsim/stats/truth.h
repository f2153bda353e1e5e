#pragma once
// Exact bytes and counts per group, computed once per trace: the values every
// estimate is compared with.
#include <vector>

#include "allocsim/sampler/scheme.h"
#include "allocsim/stats/groups.h"

namespace allocsim {

class Truth {
 public:
  Truth(const Trace& trace, const GroupIndex& groups);

  const GroupTotals& at(std::uint32_t slot, Window window) const {
    return totals_[slot * kWindowCount + static_cast<std::size_t>(window)];
  }
  static double value(const GroupTotals& totals, Quantity quantity);

 private:
  std::vector<GroupTotals> totals_;
};

}  // namespace allocsim
