#include "allocsim/trace/frees_in_time_order.h"

#include <algorithm>

namespace allocsim {

std::vector<std::pair<std::uint64_t, std::uint64_t>> frees_in_time_order(const Trace& trace) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> frees;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (!trace.live_at_end(i)) frees.emplace_back(trace.free_time[i], i);
  }
  std::sort(frees.begin(), frees.end());
  return frees;
}

}  // namespace allocsim
