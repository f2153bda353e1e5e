#pragma once
// The Go 1.19 runtime's sampling draw (golang/go src/runtime:
// stubs.go fastrand / fastrandn, fastlog2.go + fastlog2table.go, malloc.go
// fastexprand / nextSample):
//   fastrand (64-bit platforms, wyrand): s += 0xa0761d6478bd642f;
//            (hi, lo) = s * (s ^ 0xe7037ed1a0b428db) (128-bit); return uint32(hi ^ lo)
//   fastrandn(n) = uint32(uint64(fastrand()) * n >> 32)
//   q = fastrandn(2^26) + 1;  qlog = min(0, fastlog2(q) - 26)
//   next sample = int32(qlog * (-ln 2 * mean)) + 1, mean clamped to 0x7000000
// fastlog2 is the float64 exponent plus a 33-entry table of log2(1 + i/32),
// linearly interpolated on the next 20 mantissa bits (the table here from std::log2;
// Go generates it with an FMA-free log2, equal up to rounding). The runtime seeds each M's
// state from the clock and the M's id; here it is seeded from the lane.
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace allocsim {

inline constexpr double kGoMaxMean = 0x7000000;  // fastexprand's clamp (~117 MB)

__extension__ typedef unsigned __int128 GoUint128;  // math.Mul64's 128-bit product

inline std::uint32_t go_wyrand_next(std::uint64_t& state) {
  state += 0xa0761d6478bd642fULL;
  const GoUint128 product = static_cast<GoUint128>(state) * static_cast<GoUint128>(state ^ 0xe7037ed1a0b428dbULL);
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(product >> 64) ^ static_cast<std::uint64_t>(product));
}

inline std::uint32_t go_fastrandn(std::uint32_t random, std::uint32_t n) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(random) * n) >> 32);
}

// fastlog2(x) for x > 0 (x is at most 2^26 here).
inline double go_fastlog2(double x) {
  constexpr int kNumBits = 5, kScaleBits = 20;
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  const auto exponent = static_cast<std::int64_t>((bits >> 52) & 0x7FF) - 1023;
  const std::uint64_t index = (bits >> (52 - kNumBits)) % (1u << kNumBits);
  const std::uint64_t scale = (bits >> (52 - kNumBits - kScaleBits)) % (1u << kScaleBits);
  static const std::array<double, (1 << kNumBits) + 1> table = [] {
    std::array<double, (1 << kNumBits) + 1> t{};
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = std::log2(1.0 + static_cast<double>(i) / (1 << kNumBits));
    return t;
  }();
  const double low = table[index], high = table[index + 1];
  return static_cast<double>(exponent) + low + (high - low) * static_cast<double>(scale) * 0x1.0p-20;
}

// fastexprand(mean) from the 26-bit draw q in {1, ..., 2^26}: the next sample
// position (>= 1) in bytes.
inline std::int64_t go_exprand_from_q(std::uint32_t q, double mean) {
  if (mean > kGoMaxMean) mean = kGoMaxMean;
  double qlog = go_fastlog2(static_cast<double>(q)) - 26;
  if (qlog > 0) qlog = 0;
  constexpr double minus_log2 = -0.6931471805599453;
  return static_cast<std::int64_t>(static_cast<std::int32_t>(qlog * (minus_log2 * mean))) + 1;
}

}  // namespace allocsim
