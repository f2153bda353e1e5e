#pragma once
// What an estimator estimates, and a group's truth in each of those quantities:
// the words the samplers, the statistics and the outputs share.
namespace allocsim {

// Which truth an estimator is compared with.
enum class Quantity { requested_bytes, allocated_bytes, count };
const char* to_string(Quantity q);

// Truth of one group, as the theory functions need it.
struct GroupTotals {
  double requested_bytes = 0;
  double allocated_bytes = 0;
  double count = 0;
};

}  // namespace allocsim
