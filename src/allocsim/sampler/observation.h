#pragma once
// What a sampler records for one sampled allocation: the fields the real system
// has at hand when it takes the sample.
#include <algorithm>
#include <cstdint>
#include <limits>

namespace allocsim {

struct Observation {
  std::uint64_t event = 0;    // index of the allocation in the trace
  std::uint32_t samples = 0;  // sample points that fell inside it (n >= 1)
  std::uint64_t offset = 0;   // 0-based offset of the first sampled byte
  double weight = 0;          // a weight the system computed at sampling time, if it does
};

// Observation::samples for a count of sample points (saturated: the weight keeps
// the full count).
inline std::uint32_t sample_count(std::uint64_t points) {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(points, std::numeric_limits<std::uint32_t>::max()));
}

}  // namespace allocsim
