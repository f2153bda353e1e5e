#pragma once
// log2 size buckets, the groups a profile is read by when sizes matter:
// bucket 0 holds size 0, bucket k >= 1 the sizes in [2^(k-1), 2^k).
#include <bit>
#include <cstdint>
#include <string>

namespace allocsim {

inline std::uint32_t size_bucket_of(std::uint64_t size) { return static_cast<std::uint32_t>(std::bit_width(size)); }

// "[64,128)"; "[0,1)" for bucket 0 and "[2^63,2^64)" written with 2^64 as its end.
std::string size_bucket_label(std::uint32_t bucket);

}  // namespace allocsim
