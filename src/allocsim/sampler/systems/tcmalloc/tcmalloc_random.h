#pragma once
// tcmalloc's sampling PRNG and interval draw, bit for bit (google/tcmalloc
// tcmalloc/internal/exponential_biased.h ExponentialBiased::NextRandom and
// tcmalloc/sampler.cc Sampler::Init / GetGeometricVariable; fce3f55):
//   state' = (0x5DEECE66D * state + 0xB) mod 2^48          ("lrand64")
//   q = (top 26 bits of state') + 1, in {1, ..., 2^26}
//   interval = trunc((log2(q) - 26) * (-ln 2 * T)) = trunc(-T ln(q / 2^26))
// a 26-bit-quantised exponential with mean ~T, floored, at most 26 ln 2 T ~ 18 T.
// Init steps the seeded state 20 times before the first draw.
#include <cmath>
#include <cstdint>
#include <limits>

namespace allocsim {

// A draw converted to an integer byte count, clamped like tcmalloc's: a value that
// does not fit a signed 64-bit count becomes its maximum.
inline std::int64_t tcmalloc_truncate_interval(double interval) {
  constexpr double limit = 0x1.0p63;
  if (interval >= limit) return std::numeric_limits<std::int64_t>::max();
  return static_cast<std::int64_t>(interval);
}

class TcmallocLcg48 {
 public:
  static constexpr std::uint64_t kMultiplier = 0x5DEECE66DULL;
  static constexpr std::uint64_t kIncrement = 0xB;
  static constexpr std::uint64_t kMask = (std::uint64_t{1} << 48) - 1;

  static constexpr std::uint64_t next(std::uint64_t state) { return (kMultiplier * state + kIncrement) & kMask; }

  explicit TcmallocLcg48(std::uint64_t seed) : state_(seed) {
    for (int i = 0; i < 20; ++i) state_ = next(state_);
  }

  std::uint64_t state() const { return state_; }

  // GetGeometricVariable(mean).
  std::int64_t interval(double mean) {
    state_ = next(state_);
    const double q = static_cast<std::uint32_t>(state_ >> (48 - 26)) + 1.0;
    return tcmalloc_truncate_interval((std::log2(q) - 26) * (-std::log(2.0) * mean));
  }

 private:
  std::uint64_t state_;
};

}  // namespace allocsim
