#include "allocsim/trace/format/xxhash64.h"

#include <algorithm>
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

Xxhash64::Xxhash64(std::uint64_t seed)
    : lanes_{seed + kPrime1 + kPrime2, seed + kPrime2, seed, seed - kPrime1}, seed_(seed) {}

void Xxhash64::consume_stripe(const unsigned char* p) {
  for (int lane = 0; lane < 4; ++lane) lanes_[lane] = round(lanes_[lane], load64(p + 8 * lane));
}

void Xxhash64::update(const void* data, std::size_t length) {
  if (length == 0) return;  // data may be null
  const auto* p = static_cast<const unsigned char*>(data);
  const unsigned char* const end = p + length;
  total_ += length;
  if (buffered_ > 0) {
    const std::size_t take = std::min<std::size_t>(length, kStripe - buffered_);
    std::memcpy(buffer_ + buffered_, p, take);
    buffered_ += take;
    p += take;
    if (buffered_ < kStripe) return;
    consume_stripe(buffer_);
    buffered_ = 0;
  }
  for (; end - p >= static_cast<std::ptrdiff_t>(kStripe); p += kStripe) consume_stripe(p);
  buffered_ = static_cast<std::size_t>(end - p);
  std::memcpy(buffer_, p, buffered_);
}

std::uint64_t Xxhash64::digest() const {
  std::uint64_t hash;
  if (total_ >= kStripe) {
    const auto& [v1, v2, v3, v4] = lanes_;
    hash = std::rotl(v1, 1) + std::rotl(v2, 7) + std::rotl(v3, 12) + std::rotl(v4, 18);
    for (const std::uint64_t lane : lanes_) hash = merge_round(hash, lane);
  } else {
    hash = seed_ + kPrime5;
  }
  hash += total_;
  const unsigned char* p = buffer_;
  const unsigned char* const end = buffer_ + buffered_;
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

std::uint64_t xxhash64(const void* data, std::size_t length, std::uint64_t seed) {
  Xxhash64 hash(seed);
  hash.update(data, length);
  return hash.digest();
}

}  // namespace allocsim
