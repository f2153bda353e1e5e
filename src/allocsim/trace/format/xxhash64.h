#pragma once
// XXH64 (Yann Collet's xxHash, 64-bit variant, seed 0 by default): the checksum
// of allocsim's native trace files. Matches `xxhsum -H64`.
#include <cstddef>
#include <cstdint>

namespace allocsim {

std::uint64_t xxhash64(const void* data, std::size_t length, std::uint64_t seed = 0);

// The same hash fed in pieces: update() any number of times, then digest() equals
// xxhash64 of all the pieces joined.
class Xxhash64 {
 public:
  explicit Xxhash64(std::uint64_t seed = 0);
  void update(const void* data, std::size_t length);
  std::uint64_t digest() const;

 private:
  static constexpr std::size_t kStripe = 32;
  void consume_stripe(const unsigned char* p);

  std::uint64_t lanes_[4];
  unsigned char buffer_[kStripe] = {};
  std::size_t buffered_ = 0;
  std::uint64_t total_ = 0;
  std::uint64_t seed_;
};

}  // namespace allocsim
