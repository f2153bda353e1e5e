#include "allocsim/trace/format/xxhash64.h"

#include <bit>
#include <cstring>

namespace allocsim {

namespace {

constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t kPrime3 = 0x165667B19E3779F9ULL;
constexpr std::uint64_t kPrime4 = 0x85EBCA77C2B2AE63ULL;
constexpr std::uint64_t kPrime5 = 0x27D4EB2F165667C5ULL;

static_assert(std::endian::native == std::endian::little, "XXH64 reads little-endian words");

std::uint64_t load64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::uint32_t load32(const unsigned char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::uint64_t round(std::uint64_t acc, std::uint64_t input) {
  acc += input * kPrime2;
  acc = std::rotl(acc, 31);
  return acc * kPrime1;
}

std::uint64_t merge_round(std::uint64_t acc, std::uint64_t value) {
  acc ^= round(0, value);
  return acc * kPrime1 + kPrime4;
}

}  // namespace

std::uint64_t xxhash64(const void* data, std::size_t length, std::uint64_t seed) {
  const auto* p = static_cast<const unsigned char*>(data);
  const unsigned char* const end = p + length;
  std::uint64_t hash;
  if (length >= 32) {
    std::uint64_t v1 = seed + kPrime1 + kPrime2;
    std::uint64_t v2 = seed + kPrime2;
    std::uint64_t v3 = seed;
    std::uint64_t v4 = seed - kPrime1;
    for (const unsigned char* limit = end - 32; p <= limit; p += 32) {
      v1 = round(v1, load64(p));
      v2 = round(v2, load64(p + 8));
      v3 = round(v3, load64(p + 16));
      v4 = round(v4, load64(p + 24));
    }
    hash = std::rotl(v1, 1) + std::rotl(v2, 7) + std::rotl(v3, 12) + std::rotl(v4, 18);
    hash = merge_round(hash, v1);
    hash = merge_round(hash, v2);
    hash = merge_round(hash, v3);
    hash = merge_round(hash, v4);
  } else {
    hash = seed + kPrime5;
  }
  hash += length;
  for (; p + 8 <= end; p += 8) hash = std::rotl(hash ^ round(0, load64(p)), 27) * kPrime1 + kPrime4;
  if (p + 4 <= end) {
    hash = std::rotl(hash ^ (std::uint64_t{load32(p)} * kPrime1), 23) * kPrime2 + kPrime3;
    p += 4;
  }
  for (; p < end; ++p) hash = std::rotl(hash ^ (*p * kPrime5), 11) * kPrime1;
  hash ^= hash >> 33;
  hash *= kPrime2;
  hash ^= hash >> 29;
  hash *= kPrime3;
  hash ^= hash >> 32;
  return hash;
}

}  // namespace allocsim
