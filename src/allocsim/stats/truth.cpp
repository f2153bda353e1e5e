#include "allocsim/stats/truth.h"

namespace allocsim {

Truth::Truth(const Trace& trace, const GroupIndex& groups, const std::vector<Window>& windows,
             const std::function<std::uint64_t(std::size_t)>& allocated_size)
    : window_count_(windows.size()), totals_(static_cast<std::size_t>(groups.slot_count()) * window_count_) {
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const double requested = static_cast<double>(trace.requested[i]);
    const double allocated = static_cast<double>(allocated_size(i));
    for (std::size_t k = 0; k < groups.kind_count(); ++k) {
      const std::size_t base = groups.slot_of(k, i) * window_count_;
      for (std::size_t w = 0; w < window_count_; ++w) {
        if (!windows[w].contains(trace, i)) continue;
        GroupTotals& t = totals_[base + w];
        t.requested_bytes += requested;
        t.allocated_bytes += allocated;
        t.count += 1;
        if (trace.live_at_end(i)) t.net_allocated_bytes += allocated;
      }
    }
  }
}

double Truth::value(const GroupTotals& totals, Quantity quantity) {
  switch (quantity) {
    case Quantity::requested_bytes: return totals.requested_bytes;
    case Quantity::allocated_bytes: return totals.allocated_bytes;
    case Quantity::count: return totals.count;
    case Quantity::net_allocated_bytes: return totals.net_allocated_bytes;
  }
  return 0;
}

}  // namespace allocsim
