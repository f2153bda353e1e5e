#pragma once
// Counter-based random streams (Random123 Philox4x64-10).
//
// A stream is fully determined by its key (seed, stream id) and its counter prefix
// (replication, lane). Replication r of scheme k at sweep point j therefore draws the
// same numbers whichever worker thread runs it, which is what makes results
// bit-identical for 1 or N threads. A lane is one sampler thread of the traced
// program: per-thread samplers draw from their own lane, so their draws do not
// depend on how the program's threads interleave.
//
// Only raw 64-bit words come from Philox; every transform to a distribution is
// ours (random_transforms.h), because std:: distributions differ between library
// versions.
#include <Random123/philox.h>

#include <cstdint>

namespace allocsim {

struct StreamKey {
  std::uint64_t seed = 0;
  std::uint64_t stream = 0;       // which (sweep point, scheme) this is
  std::uint64_t replication = 0;  // r = 0..R-1
};

class RandomStream {
 public:
  RandomStream() = default;
  RandomStream(const StreamKey& key, std::uint64_t lane) { reset(key, lane); }

  void reset(const StreamKey& key, std::uint64_t lane) {
    key_ = {{key.seed, key.stream}};
    counter_ = {{key.replication, lane, 0, 0}};
    available_ = 0;
  }

  std::uint64_t next_u64() {
    if (available_ == 0) {
      block_ = r123::Philox4x64()(counter_, key_);
      ++counter_.v[2];
      available_ = 4;
    }
    return block_.v[--available_];
  }

  // Uniform on (0, 1]: the 53 high bits plus one, times 2^-53. Never 0, so
  // -log(u) is always finite.
  double next_uniform() { return static_cast<double>((next_u64() >> 11) + 1) * 0x1.0p-53; }

 private:
  r123::Philox4x64::key_type key_{};
  r123::Philox4x64::ctr_type counter_{};
  r123::Philox4x64::ctr_type block_{};
  unsigned available_ = 0;
};

// Mixes a (sweep point, scheme) pair into a stream id (splitmix64 finaliser), so
// neighbouring indices give unrelated keys.
constexpr std::uint64_t stream_id(std::uint64_t point, std::uint64_t scheme) {
  std::uint64_t z = (point << 32) ^ scheme ^ 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace allocsim
