#pragma once
// XXH64 (Yann Collet's xxHash, 64-bit variant, seed 0 by default): the checksum
// of allocsim's native trace files. Matches `xxhsum -H64`.
#include <cstddef>
#include <cstdint>

namespace allocsim {

std::uint64_t xxhash64(const void* data, std::size_t length, std::uint64_t seed = 0);

}  // namespace allocsim
