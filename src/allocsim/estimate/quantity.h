#pragma once
// What an estimator estimates, and a group's truth in each of those quantities:
// the words the samplers, the statistics and the outputs share.
namespace allocsim {

// Which truth an estimator is compared with. net_allocated_bytes: the allocated bytes
// of the allocations not freed by the end of the trace, i.e. what they add to the heap
// over the trace, for an estimator whose samples are taken at frees too (Scalene's net
// growth): its estimate sums every sample, the frees' negative ones included, where a
// live_ window would drop the samples of freed allocations.
enum class Quantity { requested_bytes, allocated_bytes, count, net_allocated_bytes };
const char* to_string(Quantity q);

// Truth of one group, as the theory functions need it.
struct GroupTotals {
  double requested_bytes = 0;
  double allocated_bytes = 0;
  double count = 0;
  double net_allocated_bytes = 0;  // allocated bytes never freed in the trace
};

}  // namespace allocsim
