// The byte change NEW - BASE and its interval (src/allocsim/profile/byte_change.h):
// closed forms, agreement with the test's verdict, and coverage by simulation.
#include "allocsim/profile/byte_change.h"

#include <cmath>
#include <cstdint>
#include <random>

#include <gtest/gtest.h>

#include "allocsim/profile/count_change.h"

namespace allocsim::profile {
namespace {

TEST(ByteChange, NoSamplesGiveTheDetectionLimitsOfBothSides) {
  // N = 0: p unknown in [0, 1], mu <= -ln(tail) (Garwood at 0), tail = (1 - sqrt(0.9)) / 2.
  const double mu_upper = -std::log((1.0 - std::sqrt(0.9)) / 2.0);
  const ByteChangeInterval d = byte_change_interval(0, 0, 1.0 / 1000.0, 1.0 / 4000.0, 0.9);
  EXPECT_NEAR(d.lower, -mu_upper * 1000.0, 1e-9 * mu_upper * 1000.0);
  EXPECT_NEAR(d.upper, mu_upper * 4000.0, 1e-9 * mu_upper * 4000.0);
}

TEST(ByteChange, ExcludesZeroExactlyWhenTheTestRejectsAtItsPartsLevel) {
  // D = 0 where p = w1 / (w1 + w2), the test's null: the interval at `level` excludes
  // 0 exactly when the central test rejects at 1 - sqrt(level).
  const double level = 0.95;
  const double part_alpha = 1.0 - std::sqrt(level);
  for (std::uint64_t k1 = 0; k1 <= 40; ++k1) {
    for (std::uint64_t k2 = 0; k2 <= 40; ++k2) {
      const double p = compare_counts(k1, k2, 1.0, 1.5, part_alpha).p_value;
      if (std::abs(p - part_alpha) < 1e-9) continue;  // a tie goes either way in floating point
      const ByteChangeInterval d = byte_change_interval(k1, k2, 1.0, 1.5, level);
      EXPECT_LE(d.lower, d.upper);
      EXPECT_EQ(d.lower > 0 || d.upper < 0, p <= part_alpha) << k1 << " " << k2;
    }
  }
}

// The fraction of `runs` draws whose interval at `level` misses the true B2 - B1, for
// counts drawn by `draw(generator, side)`.
template <typename Draw>
double miss_rate(double b1, double b2, double w1, double w2, double level, int runs, Draw draw) {
  std::mt19937_64 generator(20261128);
  int misses = 0;
  for (int i = 0; i < runs; ++i) {
    const auto k1 = static_cast<std::uint64_t>(draw(generator, 0));
    const auto k2 = static_cast<std::uint64_t>(draw(generator, 1));
    const ByteChangeInterval d = byte_change_interval(k1, k2, w1, w2, level);
    misses += !(d.lower <= b2 - b1 && b2 - b1 <= d.upper);
  }
  return static_cast<double>(misses) / runs;
}

TEST(ByteChange, CoversTheTrueChangeAtLeastAtItsLevel) {
  // Coverage >= level holds for every truth (byte_change.h). Bound: the miss rate of
  // 20000 draws at most 0.1 + 4 SE, SE = sqrt(0.1 * 0.9 / 20000) = 0.0021; a correct
  // interval (true miss rate <= 0.1) exceeds it with probability < 3.2e-5 per case.
  constexpr double kLevel = 0.9;
  constexpr int kRuns = 20000;
  const double bound = 0.1 + 4.0 * std::sqrt(0.1 * 0.9 / kRuns);
  struct Truth {
    double b1, b2, w1, w2;
  };
  // Poisson counts: few samples, no change, a large change, unequal exposures.
  for (const Truth& t : {Truth{2000, 3000, 1e-3, 1e-3}, Truth{20000, 20000, 1e-3, 1e-3},
                         Truth{50000, 200000, 1e-3, 1e-3}, Truth{40000, 10000, 1.0 / 1000, 1.0 / 4000}}) {
    const double rate = miss_rate(t.b1, t.b2, t.w1, t.w2, kLevel, kRuns, [&](std::mt19937_64& g, int side) {
      return std::poisson_distribution<std::uint64_t>(side == 0 ? t.b1 * t.w1 : t.b2 * t.w2)(g);
    });
    EXPECT_LE(rate, bound) << t.b1 << " -> " << t.b2;
  }
  // Go's sampler: 300 then 400 objects of 4096 B at T = 65536, each sampled with
  // q = 1 - exp(-1/16): Binomial counts, w = q / 4096 per byte.
  const double q = 1.0 - std::exp(-4096.0 / 65536.0);
  const double rate = miss_rate(300 * 4096.0, 400 * 4096.0, q / 4096, q / 4096, kLevel, kRuns,
                                [&](std::mt19937_64& g, int side) {
                                  return std::binomial_distribution<std::uint64_t>(side == 0 ? 300 : 400, q)(g);
                                });
  EXPECT_LE(rate, bound);
}

}  // namespace
}  // namespace allocsim::profile
