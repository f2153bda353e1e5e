#pragma once
// Exact bytes and counts per group, computed once per trace: the values every
// estimate is compared with.
#include <functional>
#include <vector>

#include "allocsim/estimate/quantity.h"
#include "allocsim/stats/groups.h"
#include "allocsim/stats/window.h"

namespace allocsim {

class Truth {
 public:
  // `allocated_size(i)` is the allocator's size for allocation i, as the scheme
  // being evaluated models it.
  // Totals per group slot and window (windows resolved for this trace).
  Truth(const Trace& trace, const GroupIndex& groups, const std::vector<Window>& windows,
        const std::function<std::uint64_t(std::size_t)>& allocated_size);

  // Window w is the w-th of the windows given to the constructor.
  const GroupTotals& at(std::uint32_t slot, std::size_t w) const { return totals_[slot * window_count_ + w]; }
  static double value(const GroupTotals& totals, Quantity quantity);

 private:
  std::size_t window_count_;
  std::vector<GroupTotals> totals_;
};

}  // namespace allocsim
