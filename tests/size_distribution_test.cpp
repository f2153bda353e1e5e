// Size distributions of synthetic traces: parsing, exact behaviour of the
// discrete families, and statistical checks of the random ones.
//
// Statistical checks use fixed seeds, so they are deterministic; their bounds
// still come from the theoretical standard error, so a correct sampler passes
// with any seed except with a tiny probability:
//   * means: |sample mean - mu| <= 5 sigma / sqrt(n). By the CLT a false alarm
//     has probability 5.7e-7 per check. mu and sigma are the exact moments of
//     the integer sizes (after rounding and clamping), summed from the tail
//     P(Y >= k) of the formulas stated in size_distribution.h.
//   * counts: |count - n p| <= 5 sqrt(n p (1 - p)), the same 5.7e-7.
//   * histograms: chi-square with 2 degrees of freedom <= 27.63, whose
//     survival exp(-x / 2) is 1e-6.
#include "allocsim/trace/size_distribution.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "allocsim/util/error.h"
#include "testing/statistical_assertions.h"
#include "testing/statistical_bounds.h"

namespace allocsim {
namespace {

constexpr std::size_t kDraws = 200'000;

SizeDistribution parse(const std::string& text) {
  const nlohmann::json json = nlohmann::json::parse(text);
  JsonObject object(json, "$.sizes");
  return parse_size_distribution(object);
}

std::vector<SizeDraw> draw_many(const SizeDistribution& distribution, std::size_t n, std::uint64_t seed) {
  SizeSampler sampler(distribution);
  RandomStream random(StreamKey{seed, 7, 0}, 0);
  std::vector<SizeDraw> draws(n);
  for (SizeDraw& draw : draws) draw = sampler.draw(random);
  return draws;
}

std::vector<std::uint64_t> sizes_of(const std::vector<SizeDraw>& draws) {
  std::vector<std::uint64_t> sizes;
  for (const SizeDraw& draw : draws) sizes.push_back(draw.size);
  return sizes;
}

std::vector<std::uint64_t> sample(const std::string& text, std::uint64_t seed = 1) {
  return sizes_of(draw_many(parse(text), kDraws, seed));
}

struct Moments {
  double mean = 0;
  double variance = 0;
};

// For an integer Y >= 0 with P(Y >= k) = tail(k) and P(Y > limit) = 0:
// E[Y] = sum_{k>=1} P(Y >= k) and E[Y^2] = sum_{k>=1} (2k - 1) P(Y >= k).
template <class Tail>
Moments moments_from_tail(Tail tail, std::uint64_t limit) {
  long double first = 0, second = 0;
  for (std::uint64_t k = 1; k <= limit; ++k) {
    const long double p = tail(k);
    first += p;
    second += (2.0L * k - 1) * p;
  }
  return {static_cast<double>(first), static_cast<double>(second - first * first)};
}

void expect_mean_near(const std::vector<std::uint64_t>& sizes, Moments theory) {
  long double sum = 0;
  for (const std::uint64_t s : sizes) sum += s;
  const double mean = static_cast<double>(sum / sizes.size());
  EXPECT_TRUE(testing::within_sigmas(mean, theory.mean, testing::mean_standard_error(theory.variance, sizes.size())));
}

void expect_count_near(std::size_t count, std::size_t n, double p) {
  EXPECT_TRUE(testing::within_sigmas(static_cast<double>(count), n * p, std::sqrt(n * p * (1 - p))))
      << "5-sigma binomial bound, p = " << p;
}

void expect_all_within(const std::vector<std::uint64_t>& sizes, std::uint64_t lo, std::uint64_t hi) {
  for (const std::uint64_t s : sizes) {
    ASSERT_GE(s, lo);
    ASSERT_LE(s, hi);
  }
}

std::size_t count_equal(const std::vector<std::uint64_t>& sizes, std::uint64_t value) {
  std::size_t count = 0;
  for (const std::uint64_t s : sizes) count += (s == value);
  return count;
}

// P(X >= x) for X = median * exp(sigma Z).
double lognormal_survival(double x, double median, double sigma) {
  return 0.5 * std::erfc(std::log(x / median) / (sigma * std::sqrt(2.0)));
}

TEST(SizeDistribution, ConstantAllowsZeroAndTheLargestSize) {
  for (const std::uint64_t size : {std::uint64_t{0}, std::uint64_t{48}, kMaxSyntheticSize}) {
    const auto sizes = sample(R"({"distribution": "constant", "size": )" + std::to_string(size) + "}");
    EXPECT_EQ(count_equal(sizes, size), sizes.size());
  }
}

TEST(SizeDistribution, SequenceRepeatsAndReportsPositions) {
  const auto draws = draw_many(parse(R"({"distribution": "sequence", "sizes": [20, 80, 80, 5]})"), 1001, 3);
  const std::uint64_t expected[] = {20, 80, 80, 5};
  for (std::size_t i = 0; i < draws.size(); ++i) {
    ASSERT_EQ(draws[i].size, expected[i % 4]) << "event " << i;
    ASSERT_EQ(draws[i].component, i % 4) << "event " << i;
  }
}

TEST(SizeDistribution, UniformMatchesDiscreteUniformMoments) {
  const auto sizes = sample(R"({"distribution": "uniform", "min": 10, "max": 1000})");
  expect_all_within(sizes, 10, 1000);
  const double width = 991;  // number of values
  expect_mean_near(sizes, {505, (width * width - 1) / 12});
  EXPECT_GT(count_equal(sizes, 10), 0u);
  EXPECT_GT(count_equal(sizes, 1000), 0u);
}

TEST(SizeDistribution, UniformSpansTheWholeSizeRangeWithoutOverflow) {
  const auto sizes = sample(R"({"distribution": "uniform", "min": 0, "max": 281474976710656})");
  const double width = static_cast<double>(kMaxSyntheticSize) + 1;
  expect_all_within(sizes, 0, kMaxSyntheticSize);
  expect_mean_near(sizes, {static_cast<double>(kMaxSyntheticSize) / 2, (width * width - 1) / 12});
}

TEST(SizeDistribution, LogUniformMatchesItsTail) {
  const auto sizes = sample(R"({"distribution": "log_uniform", "min": 16, "max": 65536})");
  expect_all_within(sizes, 16, 65536);
  // P(Y >= k) = ln((max + 1) / k) / ln((max + 1) / min) for min < k <= max.
  const double top = 65537, span = std::log(top / 16);
  const auto theory =
      moments_from_tail([&](std::uint64_t k) { return k <= 16 ? 1.0 : std::log(top / k) / span; }, 65536);
  expect_mean_near(sizes, theory);
  // Half the draws lie below the geometric midpoint sqrt(16 * 65537) ~ 1024.0.
  std::size_t below = 0;
  for (const std::uint64_t s : sizes) below += (s < 1024);
  expect_count_near(below, sizes.size(), std::log(1024.0 / 16) / span);
}

TEST(SizeDistribution, LognormalMatchesItsMeanAndMedian) {
  const double median = 100, sigma = 1;
  const auto sizes = sample(R"({"distribution": "lognormal", "median": 100, "sigma": 1, "max": 100000})");
  expect_all_within(sizes, 1, 100000);
  // Round to nearest: P(Y >= k) = P(X >= k - 1/2) for 1 < k <= max.
  const auto theory = moments_from_tail(
      [&](std::uint64_t k) { return k <= 1 ? 1.0 : lognormal_survival(k - 0.5, median, sigma); }, 100000);
  expect_mean_near(sizes, theory);
  // P(Y < 100) = P(X < 99.5).
  std::size_t below = 0;
  for (const std::uint64_t s : sizes) below += (s < 100);
  expect_count_near(below, sizes.size(), 1 - lognormal_survival(99.5, median, sigma));
}

TEST(SizeDistribution, LognormalClampsExtremeDrawsToTheSizeRange) {
  const auto sizes = sample(R"({"distribution": "lognormal", "median": 1099511627776, "sigma": 30})");
  expect_all_within(sizes, 1, kMaxSyntheticSize);
  EXPECT_GT(count_equal(sizes, 1), 0u);
  EXPECT_GT(count_equal(sizes, kMaxSyntheticSize), 0u);
}

TEST(SizeDistribution, LognormalRespectsMinClamp) {
  const auto sizes = sample(R"({"distribution": "lognormal", "median": 100, "sigma": 1, "min": 64})");
  expect_all_within(sizes, 64, kMaxSyntheticSize);
  // Everything below 63.5 lands on 64.
  expect_count_near(count_equal(sizes, 64), sizes.size(), 1 - lognormal_survival(64.5, 100, 1));
}

TEST(SizeDistribution, TruncatedParetoMatchesItsTail) {
  const double scale = 64, shape = 2.5, max = 100000;
  const auto sizes = sample(R"({"distribution": "pareto", "scale": 64, "shape": 2.5, "max": 100000})");
  expect_all_within(sizes, 64, 100000);
  // P(X >= x | X <= max) = ((scale/x)^a - (scale/max)^a) / (1 - (scale/max)^a);
  // rounding to nearest gives P(Y >= k) = P(X >= k - 1/2).
  const double cut = std::pow(scale / max, shape);
  const auto tail = [&](std::uint64_t k) {
    const double x = k - 0.5;
    return x <= scale ? 1.0 : (std::pow(scale / x, shape) - cut) / (1 - cut);
  };
  expect_mean_near(sizes, moments_from_tail(tail, 100000));
  std::size_t at_least_128 = 0;
  for (const std::uint64_t s : sizes) at_least_128 += (s >= 128);
  expect_count_near(at_least_128, sizes.size(), tail(128));
}

TEST(SizeDistribution, HeavyParetoStaysInTheSizeRange) {
  const auto sizes = sample(R"({"distribution": "pareto", "scale": 1, "shape": 0.05})");
  expect_all_within(sizes, 1, kMaxSyntheticSize);
  // P(X > 2^48) = 2^(-48 * 0.05) ~ 0.19 is truncated away, so the top is hit rarely.
  EXPECT_LT(count_equal(sizes, kMaxSyntheticSize), 10u);
}

TEST(SizeDistribution, HistogramMatchesWeightsByChiSquare) {
  const auto sizes = sample(R"({"distribution": "histogram", "sizes": [8, 24, 100, 4096], "weights": [1, 2, 0, 5]})");
  EXPECT_EQ(count_equal(sizes, 100), 0u) << "a zero weight is never drawn";
  const std::uint64_t values[] = {8, 24, 4096};
  const double probabilities[] = {1.0 / 8, 2.0 / 8, 5.0 / 8};
  double chi_square = 0;
  std::size_t total = 0;
  for (int j = 0; j < 3; ++j) {
    const double count = static_cast<double>(count_equal(sizes, values[j]));
    const double expected = sizes.size() * probabilities[j];
    chi_square += (count - expected) * (count - expected) / expected;
    total += count_equal(sizes, values[j]);
  }
  EXPECT_EQ(total, sizes.size());
  EXPECT_LE(chi_square, 27.63) << "chi-square, 2 degrees of freedom, false alarm 1e-6";
}

TEST(SizeDistribution, BucketsPickABucketByWeightThenUniformInside) {
  const auto sizes = sample(R"({"distribution": "histogram", "buckets": [[1, 16, 1], [17, 256, 3], [257, 4096, 0]]})");
  expect_all_within(sizes, 1, 256);
  std::size_t small = 0;
  for (const std::uint64_t s : sizes) small += (s <= 16);
  expect_count_near(small, sizes.size(), 0.25);
  // A mixture of discrete uniforms: mean sum w m, E[Y^2] = sum w (v + m^2).
  const auto uniform_second_moment = [](double lo, double hi) {
    const double width = hi - lo + 1, mean = (lo + hi) / 2;
    return (width * width - 1) / 12 + mean * mean;
  };
  const double mean = 0.25 * 8.5 + 0.75 * 136.5;
  const double second = 0.25 * uniform_second_moment(1, 16) + 0.75 * uniform_second_moment(17, 256);
  expect_mean_near(sizes, {mean, second - mean * mean});
}

TEST(SizeDistribution, MixtureRespectsComponentWeights) {
  const auto draws = draw_many(parse(R"({"distribution": "mixture", "components": [
      {"weight": 1, "distribution": "constant", "size": 20},
      {"weight": 3, "distribution": "uniform", "min": 1000, "max": 2000},
      {"weight": 0, "distribution": "constant", "size": 7}]})"),
                               kDraws, 5);
  std::size_t first = 0;
  for (const SizeDraw& draw : draws) {
    ASSERT_LT(draw.component, 2u) << "a zero-weight component is never drawn";
    if (draw.component == 0) {
      ++first;
      ASSERT_EQ(draw.size, 20u);
    } else {
      ASSERT_GE(draw.size, 1000u);
      ASSERT_LE(draw.size, 2000u);
    }
  }
  expect_count_near(first, draws.size(), 0.25);
}

TEST(SizeDistribution, SequenceInsideMixtureKeepsItsOwnOrder) {
  const auto draws = draw_many(parse(R"({"distribution": "mixture", "components": [
      {"weight": 1, "distribution": "sequence", "sizes": [20, 80]},
      {"weight": 1, "distribution": "constant", "size": 4096}]})"),
                               10'000, 9);
  std::vector<std::uint64_t> from_sequence;
  for (const SizeDraw& draw : draws) {
    if (draw.component == 0) from_sequence.push_back(draw.size);
  }
  ASSERT_GT(from_sequence.size(), 100u);
  for (std::size_t i = 0; i < from_sequence.size(); ++i) {
    ASSERT_EQ(from_sequence[i], i % 2 == 0 ? 20u : 80u);
  }
}

TEST(SizeDistribution, SameSeedSameDrawsDifferentSeedDifferentDraws) {
  const SizeDistribution d = parse(R"({"distribution": "lognormal", "median": 64, "sigma": 2})");
  EXPECT_EQ(sizes_of(draw_many(d, 1000, 11)), sizes_of(draw_many(d, 1000, 11)));
  EXPECT_NE(sizes_of(draw_many(d, 1000, 11)), sizes_of(draw_many(d, 1000, 12)));
}

TEST(SizeDistribution, AliasTableNeverDrawsZeroWeightsAndFollowsTheRest) {
  const std::vector<double> weights = {0, 3, 0, 1};
  const AliasTable table(weights);
  RandomStream random(StreamKey{1, 2, 3}, 0);
  std::size_t ones = 0;
  for (std::size_t i = 0; i < kDraws; ++i) {
    const std::uint32_t j = table.draw(random);
    ASSERT_TRUE(j == 1 || j == 3);
    ones += (j == 1);
  }
  expect_count_near(ones, kDraws, 0.75);
}

TEST(SizeDistribution, UniformIntegersCoverTheirRangeExactly) {
  RandomStream random(StreamKey{4, 5, 6}, 0);
  EXPECT_EQ(uniform_below(random, 1), 0u);
  EXPECT_EQ(uniform_between(random, 77, 77), 77u);
  uniform_between(random, 0, ~std::uint64_t{0});  // the full range is allowed
  std::size_t counts[3] = {};
  for (std::size_t i = 0; i < 30'000; ++i) ++counts[uniform_below(random, 3)];
  for (const std::size_t count : counts) expect_count_near(count, 30'000, 1.0 / 3);
}

// ---- Bad input: every error starts with the JSON path of the culprit ----

void expect_error(const std::string& text, const std::string& path, const std::string& words) {
  try {
    parse(text);
    ADD_FAILURE() << "no error for " << text;
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
    EXPECT_NE(message.find(words), std::string::npos) << message;
  }
}

TEST(SizeDistribution, RejectsMissingKeys) {
  expect_error(R"({"size": 3})", "$.sizes", "missing required key \"distribution\"");
  expect_error(R"({"distribution": "lognormal", "median": 3})", "$.sizes", "missing required key \"sigma\"");
  expect_error(R"({"distribution": "histogram", "weights": [1]})", "$.sizes", "missing required key \"sizes\"");
}

TEST(SizeDistribution, RejectsUnknownKeys) {
  expect_error(R"({"distribution": "constant", "size": 3, "sigma": 1})", "$.sizes.sigma", "unknown key");
  expect_error(R"({"distribution": "mixture", "components": [
      {"weight": 1, "distribution": "constant", "size": 3, "colour": 1}]})",
               "$.sizes.components[0].colour", "unknown key");
}

TEST(SizeDistribution, RejectsWrongTypes) {
  expect_error(R"({"distribution": 3})", "$.sizes.distribution", "expected a string");
  expect_error(R"({"distribution": "constant", "size": "big"})", "$.sizes.size",
               "expected a byte size such as 4096, \"4k\" or \"2MiB\"");  // sizes take units
  expect_error(R"({"distribution": "constant", "size": true})", "$.sizes.size", "expected a number");
  expect_error(R"({"distribution": "sequence", "sizes": 20})", "$.sizes.sizes", "expected an array");
  expect_error(R"({"distribution": "uniform", "min": 1.5, "max": 3})", "$.sizes.min", "expected an integer");
  expect_error(R"({"distribution": "mixture", "components": [5]})", "$.sizes.components[0]", "expected an object");
}

TEST(SizeDistribution, RejectsNegativeAndOversizedSizes) {
  expect_error(R"({"distribution": "constant", "size": -5})", "$.sizes.size", "must be >= 0");
  expect_error(R"({"distribution": "sequence", "sizes": [20, -80]})", "$.sizes.sizes[1]", "must be >= 0");
  expect_error(R"({"distribution": "constant", "size": 281474976710657})", "$.sizes.size", "must be <= 2^48");
  expect_error(R"({"distribution": "log_uniform", "min": 0, "max": 8})", "$.sizes.min", "must be >= 1");
}

TEST(SizeDistribution, RejectsBadParameters) {
  expect_error(R"({"distribution": "lognormal", "median": 100, "sigma": -1})", "$.sizes.sigma", "must be > 0, got -1");
  expect_error(R"({"distribution": "pareto", "scale": 0.5, "shape": 1})", "$.sizes.scale", "must be >= 1");
  expect_error(R"({"distribution": "pareto", "scale": 10, "shape": 0})", "$.sizes.shape", "must be > 0");
  expect_error(R"({"distribution": "pareto", "scale": 10, "shape": 1, "max": 5})", "$.sizes.max", "must be >= scale");
}

TEST(SizeDistribution, RejectsMinAboveMax) {
  expect_error(R"({"distribution": "uniform", "min": 100, "max": 10})", "$.sizes.max", "must be >= min (100), got 10");
  expect_error(R"({"distribution": "lognormal", "median": 9, "sigma": 1, "min": 50, "max": 8})", "$.sizes.max",
               "must be >= min");
  expect_error(R"({"distribution": "histogram", "buckets": [[1, 8, 1], [64, 32, 1]]})", "$.sizes.buckets[1][1]",
               "must be >= lo (64)");
}

TEST(SizeDistribution, RejectsBadWeights) {
  expect_error(R"({"distribution": "histogram", "sizes": [1, 2], "weights": [1, -1]})", "$.sizes.weights[1]",
               "must be >= 0");
  expect_error(R"({"distribution": "histogram", "sizes": [1, 2], "weights": [0, 0]})", "$.sizes.weights",
               "must not all be 0");
  expect_error(R"({"distribution": "histogram", "sizes": [1, 2], "weights": [1]})", "$.sizes.weights",
               "one weight per size");
  expect_error(R"({"distribution": "histogram", "buckets": [[1, 8]]})", "$.sizes.buckets[0]",
               "expected [lo, hi, weight]");
  expect_error(R"({"distribution": "histogram", "sizes": [1], "weights": [1], "buckets": []})", "$.sizes", "not both");
  expect_error(R"({"distribution": "mixture", "components": [
      {"weight": 0, "distribution": "constant", "size": 3}]})",
               "$.sizes.components", "must not all be 0");
}

TEST(SizeDistribution, RejectsUnknownDistributionListingTheKnownOnes) {
  expect_error(R"({"distribution": "gauss"})", "$.sizes.distribution",
               "unknown distribution \"gauss\" (known: constant, sequence, uniform, log_uniform, "
               "lognormal, pareto, histogram, mixture)");
}

TEST(SizeDistribution, NamesTheFullPathInsideNestedMixtures) {
  expect_error(R"({"distribution": "mixture", "components": [
      {"weight": 1, "distribution": "constant", "size": 3},
      {"weight": 1, "distribution": "mixture", "components": [
          {"weight": 2, "distribution": "lognormal", "median": 5, "sigma": 0}]}]})",
               "$.sizes.components[1].components[0].sigma", "must be > 0");
}

}  // namespace
}  // namespace allocsim
