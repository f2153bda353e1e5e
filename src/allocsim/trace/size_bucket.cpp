#include "allocsim/trace/size_bucket.h"

namespace allocsim {

std::string size_bucket_label(std::uint32_t bucket) {
  if (bucket == 0) return "[0,1)";
  const auto lo = std::uint64_t{1} << (bucket - 1);
  std::string label = "[";
  label += std::to_string(lo);
  label += ',';
  label += bucket == 64 ? std::string("2^64") : std::to_string(lo * 2);
  label += ')';
  return label;
}

}  // namespace allocsim
