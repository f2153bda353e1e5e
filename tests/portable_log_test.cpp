// portable_log (random/portable_log.h): its error against an 80-bit logarithm, the
// same bits from its vectorised loop as from a scalar call, and the draws made
// through it against the exact distributions.
#include "allocsim/random/portable_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <vector>

#include "allocsim/random/log_uniform_batch.h"
#include "allocsim/random/random_stream.h"
#include "allocsim/random/random_transforms.h"
#include "testing/statistical_bounds.h"

namespace allocsim {
namespace {

// |log x - logl x| in units of the last place of the double nearest logl x.
double ulp_error(double x) {
  const long double exact = logl(static_cast<long double>(x));
  const double nearest = static_cast<double>(exact);
  const double ulp = std::nextafter(std::fabs(nearest), INFINITY) - std::fabs(nearest);
  return static_cast<double>(std::fabs(static_cast<long double>(portable_log(x)) - exact) / ulp);
}

// Below one ulp, fdlibm's bound for this algorithm; measured worst: 0.83 ulp over
// 2 * 10^7 inputs. Deterministic inputs: uniforms of a fixed stream, the same
// scaled down by up to 2^-60, and the edges of the reduction.
TEST(PortableLog, WithinOneUlpOfAnExtendedPrecisionLog) {
  RandomStream stream({5, 0, 0}, 0);
  double worst = 0;
  for (int i = 0; i < 1000000; ++i) {
    const double u = stream.next_uniform();
    worst = std::fmax(worst, ulp_error(u));
    worst = std::fmax(worst, ulp_error(std::ldexp(u, -static_cast<int>(stream.next_u64() % 61))));
  }
  for (double edge : {0x1.0p-53, 0x1.6a09e667f3bccp+0, 0x1.6a09e667f3bcdp+0, 0x1.6a09e667f3bcep-1, 0x1.fffffffffffffp-1,
                      0x1.0000000000001p+0, 0.5, 2.0, 1e300, 0x1.0p-1022}) {
    worst = std::fmax(worst, ulp_error(edge));
  }
  EXPECT_LT(worst, 1.0);
  EXPECT_EQ(portable_log(1.0), 0.0);
}

[[gnu::noinline]] double scalar_log(double x) { return portable_log(x); }

// Every vector width this processor runs (SSE2, AVX2, AVX-512 on x86-64), and the
// one portable_logs picks, against the scalar function: the uniforms the draws
// take, the edges of the reduction to [sqrt(1/2), sqrt(2)), and a wide spread of
// exponents. 4099 values leave a tail shorter than any vector.
TEST(PortableLog, EveryVectorWidthGivesTheScalarBits) {
  RandomStream stream({6, 0, 0}, 0);
  std::vector<double> x(1 << 20);
  for (double& u : x) u = stream.next_uniform();
  for (std::size_t i = 0; i < 4096; ++i)
    x[i] = std::ldexp(1.0 + static_cast<double>(i) / 4096, static_cast<int>(i % 2045) - 1022);
  const double edges[] = {0x1.0p-53,
                          0x1.6a09e667f3bccp+0,
                          0x1.6a09e667f3bcdp+0,
                          0x1.6a09e667f3bcep-1,
                          0x1.fffffffffffffp-1,
                          0x1.0000000000001p+0,
                          1.0,
                          0.5,
                          2.0,
                          1e300,
                          0x1.0p-1022};
  std::copy(std::begin(edges), std::end(edges), x.begin() + 4096);
  std::vector<double> scalar(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) scalar[i] = scalar_log(x[i]);
  std::vector<PortableLogKernel> kernels = portable_log_kernels();
  kernels.push_back({"portable_logs", portable_logs});
  for (const PortableLogKernel& kernel : kernels) {
    for (const std::size_t n : {x.size(), std::size_t{4099}, std::size_t{3}}) {
      std::vector<double> logs(n);
      kernel.logs(x.data(), logs.data(), n);
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(std::bit_cast<std::uint64_t>(logs[i]), std::bit_cast<std::uint64_t>(scalar[i]))
            << kernel.name << ", x = " << x[i];
      }
    }
  }
#if defined(__x86_64__)
  // Where the processor has AVX-512, all three x86-64 kernels were compared.
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) {
    EXPECT_EQ(portable_log_kernels().size(), 3u);
  }
#endif
}

TEST(PortableLog, BatchedDrawsAreTheOneAtATimeDraws) {
  RandomStream batched_stream({8, 1, 2}, 3), single({8, 1, 2}, 3);
  LogUniformBatch<RandomStream> batch(batched_stream);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(batch.next(), portable_log(single.next_uniform())) << "draw " << i;
}

// Pearson's chi-square of n draws counted in bins of the given probabilities
// under the exact distribution, below its quantile at false-alarm rate
// kSigmasFalseAlarmRate (chi-square with bins - 1 degrees of freedom).
void expect_chi_square_fits(const std::vector<std::uint64_t>& counts, const std::vector<double>& probabilities,
                            double n, const char* what) {
  double chi2 = 0;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    const double expected = n * probabilities[b], difference = static_cast<double>(counts[b]) - expected;
    chi2 += difference * difference / expected;
  }
  const boost::math::chi_squared dist(static_cast<double>(counts.size() - 1));
  const double bound = boost::math::quantile(boost::math::complement(dist, testing::kSigmasFalseAlarmRate));
  EXPECT_LT(chi2, bound) << what << ": chi-square " << chi2 << " on " << counts.size() - 1 << " df";
}

// 10^8 Exp(1) draws -ln u in 1000 bins of probability 1/1000 each under the exact
// CDF F(x) = 1 - e^-x: bin floor(1000 F(x)) (F through expm1; a draw within a
// rounding error of a bin edge is all it can misplace).
TEST(PortableLog, ExponentialDrawsFollowTheExactDistribution) {
  constexpr std::size_t kBins = 1000;
  constexpr std::uint64_t kDraws = 100000000;
  std::vector<std::uint64_t> counts(kBins);
  RandomStream stream({9, 0, 0}, 0);
  LogUniformBatch<RandomStream> logs(stream);
  for (std::uint64_t i = 0; i < kDraws; ++i) {
    const double cdf = -std::expm1(-exponential_from_log_uniform(logs.next(), 1.0));
    ++counts[std::min(static_cast<std::size_t>(cdf * kBins), kBins - 1)];
  }
  expect_chi_square_fits(counts, std::vector<double>(kBins, 1.0 / kBins), kDraws, "exponential");
}

// 10^8 geometric draws with p = 1/3 against P(G = g) = (1 - p)^(g - 1) p, g = 1..39,
// and the tail G >= 40 (probability (2/3)^39 = 1.4e-7) in the last bin.
TEST(PortableLog, GeometricDrawsFollowTheExactDistribution) {
  constexpr std::uint64_t kDraws = 100000000;
  constexpr std::uint64_t kTail = 40;
  const double p = 1.0 / 3;
  const GeometricTrials trials(p);
  std::vector<std::uint64_t> counts(kTail);
  std::vector<double> probabilities(kTail);
  for (std::uint64_t g = 1; g <= kTail; ++g) {
    probabilities[g - 1] = std::pow(1 - p, static_cast<double>(g - 1)) * (g < kTail ? p : 1.0);
  }
  RandomStream stream({10, 0, 0}, 0);
  for (std::uint64_t i = 0; i < kDraws; ++i) ++counts[std::min(trials(stream.next_uniform()), kTail) - 1];
  expect_chi_square_fits(counts, probabilities, kDraws, "geometric");
}

}  // namespace
}  // namespace allocsim
