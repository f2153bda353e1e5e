// Exact negative binomial CDF, complement and quantiles (estimate/negative_binomial.h),
// and the .NET document's quantile table (estimate/quantile_table.h).
#include "allocsim/estimate/negative_binomial.h"

#include <gtest/gtest.h>

#include <array>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "allocsim/estimate/quantile_table.h"
#include "allocsim/util/error.h"

namespace allocsim::interval {
namespace {

constexpr double kDotNetP = 1.0 / 102400.0;

// sum_{i=0..k} C(i+s-1, i) p^s q^i, by the pmf recurrence
// pmf(i) = pmf(i-1) q (i+s-1)/i, in long double.
double cdf_by_pmf_sum(std::int64_t s, double p, std::int64_t k) {
  long double pmf = std::pow(static_cast<long double>(p), static_cast<long double>(s));
  long double sum = pmf;
  for (std::int64_t i = 1; i <= k; ++i) {
    pmf *= (1.0L - p) * static_cast<long double>(i + s - 1) / static_cast<long double>(i);
    sum += pmf;
  }
  return static_cast<double>(sum);
}

// P(Bin(k+s, p) >= s): sum_{j=s..k+s} C(k+s, j) p^j q^(k+s-j), terms in log space.
double cdf_by_binomial_tail(std::int64_t s, double p, std::int64_t k) {
  const double n = static_cast<double>(k + s);
  long double sum = 0.0L;
  for (std::int64_t j = s; j <= k + s; ++j) {
    const double jd = static_cast<double>(j);
    sum += std::exp(static_cast<long double>(std::lgamma(n + 1) - std::lgamma(jd + 1) - std::lgamma(n - jd + 1) +
                                             jd * std::log(p) + (n - jd) * std::log1p(-p)));
  }
  return static_cast<double>(sum);
}

// 1 - q^(k+1) sum_{j=0..s-1} (k+1)_j p^j / j!   (rising factorial (a)_j).
double cdf_by_rising_factorial(std::int64_t s, double p, std::int64_t k) {
  long double term = 1.0L;
  long double sum = 1.0L;
  for (std::int64_t j = 1; j < s; ++j) {
    term *= static_cast<long double>(k + j) * p / static_cast<long double>(j);
    sum += term;
  }
  return static_cast<double>(
      1.0L - std::exp(static_cast<long double>(k + 1) * std::log1p(static_cast<long double>(-p))) * sum);
}

TEST(NegativeBinomialTest, CdfMatchesPmfSumBinomialAndBetaForms) {
  struct Case {
    std::int64_t s;
    double p;
    std::vector<std::int64_t> failures;
  };
  const std::vector<Case> cases = {
      {1, 0.3, {0, 1, 2, 5, 10, 20}},
      {3, 0.3, {0, 1, 4, 7, 15, 30}},
      {5, 0.05, {0, 10, 60, 95, 150, 250}},
      {10, 0.5, {0, 3, 10, 20, 40}},
  };
  for (const Case& c : cases) {
    const NegativeBinomial distribution(c.s, c.p);
    for (const std::int64_t k : c.failures) {
      SCOPED_TRACE("s=" + std::to_string(c.s) + " p=" + std::to_string(c.p) + " k=" + std::to_string(k));
      const double value = cdf(distribution, static_cast<double>(k));
      const double tolerance = 1e-13 + 1e-11 * value;
      EXPECT_NEAR(value, cdf_by_pmf_sum(c.s, c.p, k), tolerance);
      EXPECT_NEAR(value, cdf_by_binomial_tail(c.s, c.p, k), tolerance);
      EXPECT_NEAR(value, cdf_by_rising_factorial(c.s, c.p, k), 1e-13);
      EXPECT_NEAR(value, boost::math::ibeta(double(c.s), double(k) + 1.0, c.p), tolerance);
    }
  }
}

TEST(NegativeBinomialTest, CdfMatchesPmfSumAtDotNetProbability) {
  // s = 2 and 4 at p = 1/102400 around the document's 2.5% and 97.5% points:
  // up to ~9e5 pmf terms.
  for (const std::int64_t s : {2, 4}) {
    const NegativeBinomial distribution(s, kDotNetP);
    for (const std::int64_t k : {0, 1000, 24800, 111599, 300000, 897761}) {
      const double value = cdf(distribution, static_cast<double>(k));
      EXPECT_NEAR(value, cdf_by_pmf_sum(s, kDotNetP, k), 1e-20 + 1e-10 * value) << s << " " << k;
      EXPECT_NEAR(value, cdf_by_rising_factorial(s, kDotNetP, k), 1e-12) << s << " " << k;
    }
  }
}

TEST(NegativeBinomialTest, SingleSuccessIsGeometric) {
  // s = 1: P(X <= k) = 1 - q^(k+1); the P-quantile (up) is ceil(ln(1-P)/ln q) - 1.
  const NegativeBinomial geometric(1, kDotNetP);
  for (const double k : {0.0, 1.0, 2591.0, 70000.0, 377738.0, 5e6}) {
    const double tail = std::exp((k + 1.0) * std::log1p(-kDotNetP));
    EXPECT_NEAR(cdf(geometric, k), -std::expm1((k + 1.0) * std::log1p(-kDotNetP)), 1e-14);
    EXPECT_NEAR(cdf_complement(geometric, k), tail, 1e-12 * tail) << k;
  }
  for (const double probability : {1e-9, 0.025, 0.5, 0.975, 0.999999}) {
    const double expected = std::ceil(std::log1p(-probability) / std::log1p(-kDotNetP)) - 1.0;
    EXPECT_EQ(quantile(geometric, probability, QuantileRounding::up), std::fmax(0.0, expected)) << probability;
  }
}

TEST(NegativeBinomialTest, ComplementIsAccurateNotOneMinusCdf) {
  const NegativeBinomial distribution(3, 0.01);
  for (const double k : {0.0, 10.0, 300.0, 1000.0}) {
    EXPECT_NEAR(cdf(distribution, k) + cdf_complement(distribution, k), 1.0, 1e-15) << k;
  }
  // Far tail: 1 - cdf is 0 in double, the complement is not. For s = 1 it is q^(k+1).
  const NegativeBinomial geometric(1, kDotNetP);
  const double k = 5e7;
  const double expected = std::exp((k + 1.0) * std::log1p(-kDotNetP));  // ~1e-212
  EXPECT_EQ(cdf(geometric, k), 1.0);
  EXPECT_GT(expected, 0.0);
  EXPECT_NEAR(cdf_complement(geometric, k), expected, 1e-9 * expected);
}

struct ConventionCase {
  std::int64_t s;
  double p;
  double probability;
};

const std::vector<ConventionCase>& convention_cases() {
  static const std::vector<ConventionCase> cases = {
      {1, kDotNetP, 0.025}, {1, kDotNetP, 0.975}, {8, kDotNetP, 0.025},
      {8, kDotNetP, 0.975}, {100, kDotNetP, 0.5}, {10000, kDotNetP, 0.025},
      {3, 0.3, 0.2},        {3, 0.3, 0.9},        {1, 0.5, 0.5},  // CDF(0) = 0.5 exactly
      {1, kDotNetP, 1e-6},  {2, 1e-12, 0.025},    {1000000, 1e-5, 0.975},
  };
  return cases;
}

TEST(NegativeBinomialTest, RoundUpIsSmallestFailureCountReachingP) {
  for (const auto& c : convention_cases()) {
    SCOPED_TRACE("s=" + std::to_string(c.s) + " P=" + std::to_string(c.probability));
    const NegativeBinomial distribution(c.s, c.p);
    const double k = quantile(distribution, c.probability, QuantileRounding::up);
    EXPECT_EQ(k, std::floor(k));
    EXPECT_GE(cdf(distribution, k), c.probability);  // P <= CDF(k)
    if (k > 0) {
      EXPECT_LT(cdf(distribution, k - 1), c.probability);  // CDF(k-1) < P
    }
  }
}

TEST(NegativeBinomialTest, RoundDownIsLargestFailureCountNotExceedingP) {
  for (const auto& c : convention_cases()) {
    SCOPED_TRACE("s=" + std::to_string(c.s) + " P=" + std::to_string(c.probability));
    const NegativeBinomial distribution(c.s, c.p);
    const double k = quantile(distribution, c.probability, QuantileRounding::down);
    EXPECT_GT(cdf(distribution, k + 1), c.probability);  // P < CDF(k+1)
    // CDF(k) <= P, unless P < CDF(0) where the result is clamped to 0.
    if (cdf(distribution, 0) <= c.probability) {
      EXPECT_LE(cdf(distribution, k), c.probability);
    } else {
      EXPECT_EQ(k, 0.0);
    }
  }
}

TEST(NegativeBinomialTest, RealQuantileSolvesTheBetaForm) {
  for (const auto& c : convention_cases()) {
    SCOPED_TRACE("s=" + std::to_string(c.s) + " P=" + std::to_string(c.probability));
    const NegativeBinomial distribution(c.s, c.p);
    const double x = quantile(distribution, c.probability, QuantileRounding::real);
    EXPECT_NEAR(boost::math::ibeta(double(c.s), x + 1.0, c.p), c.probability, 1e-9 * c.probability);
    // Rounding the real quantile up and down gives the integer conventions
    // (away from ties such as s = 1, p = 0.5, P = 0.5 where x* = 0 exactly).
    if (std::fabs(x - std::round(x)) < 1e-6) continue;
    EXPECT_EQ(quantile(distribution, c.probability, QuantileRounding::up), std::fmax(0.0, std::ceil(x)));
    EXPECT_EQ(quantile(distribution, c.probability, QuantileRounding::down), std::fmax(0.0, std::floor(x)));
  }
}

TEST(NegativeBinomialTest, ComplementQuantileConventions) {
  for (const auto& c : convention_cases()) {
    SCOPED_TRACE("s=" + std::to_string(c.s) + " Q=" + std::to_string(c.probability));
    const NegativeBinomial distribution(c.s, c.p);
    const double q = c.probability;
    const double up = quantile_complement(distribution, q, QuantileRounding::up);
    EXPECT_LE(cdf_complement(distribution, up), q);  // CDF(up) >= 1 - Q
    if (up > 0) {
      EXPECT_GT(cdf_complement(distribution, up - 1), q);
    }
    const double down = quantile_complement(distribution, q, QuantileRounding::down);
    EXPECT_LT(cdf_complement(distribution, down + 1), q);  // CDF(down+1) > 1 - Q
    if (down > 0) {
      EXPECT_GE(cdf_complement(distribution, down), q);
    }
    // Same quantile as the lower-tail call at P = 1 - Q.
    EXPECT_EQ(up, quantile(distribution, 1.0 - q, QuantileRounding::up));
  }
}

TEST(NegativeBinomialTest, ComplementQuantileHandlesTinyUpperTails) {
  const NegativeBinomial distribution(1, kDotNetP);
  const double k = quantile_complement(distribution, 1e-300, QuantileRounding::up);
  EXPECT_TRUE(std::isfinite(k));
  EXPECT_LE(cdf_complement(distribution, k), 1e-300);
  EXPECT_GT(cdf_complement(distribution, k - 1), 1e-300);
  // Below CDF(0) = p the lower quantile is 0 under every integer rounding.
  EXPECT_EQ(quantile(distribution, 1e-300, QuantileRounding::up), 0.0);
  EXPECT_EQ(quantile(distribution, 1e-300, QuantileRounding::down), 0.0);
  // x* = -1 + ~1e-295, which is -1 in double.
  EXPECT_EQ(quantile(distribution, 1e-300, QuantileRounding::real), -1.0);
}

TEST(NegativeBinomialTest, ExtremeParametersGiveFiniteQuantiles) {
  // p = 1e-12, s = 1e7: ~1e19 failures, beyond 2^52, so the real quantile comes back.
  const NegativeBinomial huge(10000000, 1e-12);
  const double lower = quantile(huge, 0.025, QuantileRounding::up);
  const double upper = quantile_complement(huge, 0.025, QuantileRounding::up);
  EXPECT_TRUE(std::isfinite(lower));
  EXPECT_GT(lower, kLargestRoundedQuantile);
  EXPECT_LT(lower, 1e19);  // mean s q/p ~ 1e19
  EXPECT_GT(upper, 1e19);
  EXPECT_EQ(lower, quantile(huge, 0.025, QuantileRounding::real));
  // p = 1e-12, s = 1 stays below 2^52 and keeps the integer convention.
  const NegativeBinomial rare(1, 1e-12);
  const double k = quantile(rare, 0.975, QuantileRounding::up);
  EXPECT_NEAR(k, std::log(0.025) / std::log1p(-1e-12), 1e-6 * k);
  EXPECT_GE(cdf(rare, k), 0.975);
  EXPECT_LT(cdf(rare, k - 1), 0.975);
}

TEST(NegativeBinomialTest, BadParametersThrowInputError) {
  EXPECT_THROW(NegativeBinomial(0, 0.5), InputError);
  EXPECT_THROW(NegativeBinomial(-3, 0.5), InputError);
  EXPECT_THROW(NegativeBinomial(1, 0.0), InputError);
  EXPECT_THROW(NegativeBinomial(1, 1.0), InputError);
  EXPECT_THROW(NegativeBinomial(1, std::nan("")), InputError);
  const NegativeBinomial distribution(2, 0.1);
  for (const double k : {-1.0, 2.5, std::nan(""), std::numeric_limits<double>::infinity()}) {
    EXPECT_THROW(cdf(distribution, k), InputError) << k;
    EXPECT_THROW(cdf_complement(distribution, k), InputError) << k;
  }
  for (const double probability : {0.0, 1.0, -0.1, 1.5, std::nan("")}) {
    EXPECT_THROW(quantile(distribution, probability, QuantileRounding::up), InputError);
    EXPECT_THROW(quantile_complement(distribution, probability, QuantileRounding::down), InputError);
  }
}

// The .NET document's table (RandomizedAllocationSampling.md, "Estimation
// Approach 2: Estimating failed trials"): failures at CDF() = 0.025 and
// CDF() = 0.975 for p = 1/102400, transcribed verbatim.
struct DocumentRow {
  std::int64_t samples;
  double at_0_025;
  double at_0_975;
};
constexpr std::array<DocumentRow, 25> kDocumentTable = {{
    {1, 2591, 377738},
    {2, 24800, 570531},
    {3, 63349, 739802},
    {4, 111599, 897761},
    {5, 166241, 1048730},
    {6, 225469, 1194827},
    {7, 288185, 1337279},
    {8, 353666, 1476870},
    {9, 421407, 1614137},
    {10, 491039, 1749469},
    {20, 1250954, 3038270},
    {30, 2072639, 4264804},
    {40, 2926207, 5459335},
    {50, 3800118, 6633475},
    {100, 8331581, 12342053},
    {200, 17739679, 23413825},
    {300, 27341465, 34291862},
    {400, 37043463, 45069676},
    {500, 46809487, 55783459},
    {1000, 96149867, 108842093},
    {2000, 195919830, 213870137},
    {3000, 296301551, 318286418},
    {4000, 396999923, 422386047},
    {5000, 497900649, 526283322},
    {10000, 1004017229, 1044156743},
}};

// The document rounds the real-valued quantile down: every entry is floor(x*),
// the largest k with CDF(k) <= P (e.g. s = 1: x* = 2591.53 and 377738.41). So
// QuantileRounding::down reproduces the whole table, and the textbook
// convention `up` is exactly one more failure in every cell.
TEST(NegativeBinomialTest, ReproducesTheDocumentTableWithRoundDown) {
  const auto rows = quantile_table(kDotNetP, 0.95, QuantileRounding::down);
  ASSERT_EQ(rows.size(), kDocumentTable.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const DocumentRow& expected = kDocumentTable[i];
    EXPECT_EQ(rows[i].samples, expected.samples);
    EXPECT_EQ(rows[i].exact.lower, expected.at_0_025) << "s=" << expected.samples;
    EXPECT_EQ(rows[i].exact.upper, expected.at_0_975) << "s=" << expected.samples;
    const NegativeBinomial distribution(expected.samples, kDotNetP);
    EXPECT_EQ(quantile(distribution, 0.975, QuantileRounding::down), expected.at_0_975);
  }
}

TEST(NegativeBinomialTest, RoundUpIsOneAboveTheDocumentTable) {
  for (const DocumentRow& expected : kDocumentTable) {
    const NegativeBinomial distribution(expected.samples, kDotNetP);
    EXPECT_EQ(quantile(distribution, 0.025, QuantileRounding::up), expected.at_0_025 + 1) << "s=" << expected.samples;
    EXPECT_EQ(quantile_complement(distribution, 0.025, QuantileRounding::up), expected.at_0_975 + 1)
        << "s=" << expected.samples;
  }
}

TEST(NegativeBinomialTest, DocumentExampleCdfValues) {
  // "CDF(353666, 8, 1/102400) ~= 0.025 and CDF(1476870, 8, 1/102400) ~= 0.975".
  const NegativeBinomial distribution(8, kDotNetP);
  EXPECT_NEAR(cdf(distribution, 353666), 0.025, 1e-6);
  EXPECT_NEAR(cdf(distribution, 1476870), 0.975, 1e-6);
}

TEST(NegativeBinomialTest, DocumentSampleCounts) {
  const std::vector<std::int64_t> expected = {1,  2,   3,   4,   5,   6,   7,    8,    9,    10,   20,   30,   40,
                                              50, 100, 200, 300, 400, 500, 1000, 2000, 3000, 4000, 5000, 10000};
  EXPECT_EQ(document_sample_counts(), expected);
}

}  // namespace
}  // namespace allocsim::interval
