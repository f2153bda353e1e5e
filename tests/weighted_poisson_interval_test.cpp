// Fay and Feuer's gamma interval for a weighted sum of Poisson counts
// (profile/weighted_poisson_interval.h) and the mixed-rate interval aggregate builds on
// it (profile/mixed_rate_interval.h): Garwood's exact interval when the weights are
// equal, and its coverage, which no theorem guarantees, measured by simulation at
// three rates.
#include <gtest/gtest.h>

#include <array>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "allocsim/profile/entry_interval.h"
#include "allocsim/profile/mixed_rate_interval.h"
#include "allocsim/profile/weighted_poisson_interval.h"
#include "allocsim/util/error.h"
#include "testing/statistical_bounds.h"

namespace allocsim {
namespace {

using profile::EntryInterval;
using profile::ModelKind;
using profile::SamplingModel;
using profile::WeightedCount;
using profile::WeightedInterval;

TEST(WeightedPoissonInterval, EqualWeightsGiveGarwoodsExactIntervalTimesTheWeight) {
  // With w_i = w: y = w k, v = w^2 k, and both gamma parameters reduce to Garwood's
  // chi-squared form, w/2 chi2(a/2; 2k) and w/2 chi2(1 - a/2; 2(k + 1)).
  const SamplingModel poisson{ModelKind::poisson_bytes, 4096, "poisson"};
  for (const double level : {0.5, 0.95, 0.999}) {
    for (const std::array<double, 3> counts : {std::array<double, 3>{0, 0, 0}, {1, 0, 2}, {17, 40, 3}}) {
      std::vector<WeightedCount> terms;
      for (const double k : counts) terms.push_back({poisson.rate, k});
      const WeightedInterval fay_feuer = profile::weighted_poisson_interval(terms, level);
      const EntryInterval garwood =
          profile::entry_interval(poisson, counts[0] + counts[1] + counts[2], 64, level, false);
      EXPECT_NEAR(fay_feuer.lower, garwood.bytes_lower, 1e-9 * garwood.bytes_upper) << level;
      EXPECT_NEAR(fay_feuer.upper, garwood.bytes_upper, 1e-9 * garwood.bytes_upper) << level;
    }
  }
}

TEST(WeightedPoissonInterval, NoCountsGiveZeroAndTheLargestWeightsGarwoodUpperEnd) {
  // y = v = 0: the upper end is w_M/2 chi2(1 - a/2; 2) = -w_M ln(a/2).
  const std::vector<WeightedCount> none{{32768, 0}, {524288, 0}, {65536, 0}};
  const WeightedInterval interval = profile::weighted_poisson_interval(none, 0.95);
  EXPECT_EQ(interval.estimate, 0);
  EXPECT_EQ(interval.lower, 0);
  EXPECT_NEAR(interval.upper, -524288 * std::log(0.025), 1e-6);
}

TEST(WeightedPoissonInterval, BadInputIsRefused) {
  const std::vector<WeightedCount> one{{1, 1}};
  EXPECT_THROW(profile::weighted_poisson_interval({}, 0.95), InputError);
  EXPECT_THROW(profile::weighted_poisson_interval(one, 1.0), InputError);
  EXPECT_THROW(profile::weighted_poisson_interval(std::vector<WeightedCount>{{0, 1}}, 0.95), InputError);
  EXPECT_THROW(profile::weighted_poisson_interval(std::vector<WeightedCount>{{1, -1}}, 0.95), InputError);
}

const SamplingModel kGo32{ModelKind::per_allocation_exponential, 32768, "go"};
const SamplingModel kGo64{ModelKind::per_allocation_exponential, 65536, "go"};
const SamplingModel kGo512{ModelKind::per_allocation_exponential, 524288, "go"};

TEST(MixedRateInterval, WeightsAreTrueBytesPerSampleAndCertainCountsAreExact) {
  // 1 MiB objects: recorded whole at one profile, sampled with p = 1 - exp(-2) at
  // 512 KiB; a point only when every profile is certain.
  SamplingModel whole = kGo64;
  whole.recorded_whole_from = 1 << 20;
  const std::vector<SamplingModel> models{whole, kGo512};
  const std::vector<double> samples{3, 2};
  const EntryInterval interval = profile::mixed_rate_interval(models, samples, 1 << 20, 0.95, false);
  const double weight = (1 << 20) / -std::expm1(-2.0);  // s / p(s)
  const std::vector<WeightedCount> sampled{{weight, 2}};
  const WeightedInterval rest = profile::weighted_poisson_interval(sampled, 0.95);
  EXPECT_DOUBLE_EQ(interval.bytes_lower, 3.0 * (1 << 20) + rest.lower);
  EXPECT_DOUBLE_EQ(interval.bytes_upper, 3.0 * (1 << 20) + rest.upper);
  EXPECT_DOUBLE_EQ(interval.objects_upper, interval.bytes_upper / (1 << 20));
  EXPECT_NE(interval.method.find("Fay-Feuer"), std::string::npos) << interval.method;
  EXPECT_NE(interval.method.find("binomial counts taken as Poisson"), std::string::npos) << interval.method;
  const std::vector<SamplingModel> both_whole{whole, whole};
  const EntryInterval point = profile::mixed_rate_interval(both_whole, samples, 1 << 20, 0.95, true);
  EXPECT_EQ(point.objects_lower, 5);
  EXPECT_EQ(point.objects_upper, 5);
  EXPECT_NE(point.method.find("approximate"), std::string::npos) << point.method;
  EXPECT_THROW(profile::mixed_rate_interval(models, std::vector<double>{1}, 64, 0.95, false), InputError);
  EXPECT_THROW(profile::mixed_rate_interval(models, std::vector<double>{1, -1}, 64, 0.95, false), InputError);
}

// One site of objects of `size` bytes, `objects[i]` of them in the profile at rates[i].
struct Site {
  double size;
  std::array<double, 3> objects;
};

// The fraction of `draws` fixed-seed draws of the three profiles' counts whose
// interval misses the site's true bytes. Per-allocation models draw
// Binomial(n_i, p_i(s)), the byte-rate one Poisson(n_i s / T_i).
double miss_rate(const std::vector<SamplingModel>& models, const Site& site, int draws, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  const double truth = site.size * (site.objects[0] + site.objects[1] + site.objects[2]);
  int misses = 0;
  std::vector<double> samples(models.size());
  for (int draw = 0; draw < draws; ++draw) {
    for (std::size_t i = 0; i < models.size(); ++i) {
      const double n = site.objects[i];
      if (models[i].kind == ModelKind::poisson_bytes) {
        samples[i] =
            n == 0 ? 0
                   : static_cast<double>(std::poisson_distribution<long long>(n * site.size / models[i].rate)(random));
      } else {
        const double p = profile::sample_probability(models[i], site.size);
        samples[i] = static_cast<double>(std::binomial_distribution<long long>(static_cast<long long>(n), p)(random));
      }
    }
    const EntryInterval interval = profile::mixed_rate_interval(models, samples, site.size, 0.95, false);
    misses += truth < interval.bytes_lower || truth > interval.bytes_upper;
  }
  return static_cast<double>(misses) / draws;
}

TEST(MixedRateInterval, CoverageAtRates32And64And512KiBIsAtLeastTheLevel) {
  constexpr int kDraws = 20000;
  constexpr double kAlpha = 0.05;
  // One-sided at 4 standard errors of a proportion: a true miss rate of exactly alpha
  // exceeds it with probability 1 - Phi(4) = 3.2e-5 per comparison (12 here: < 4e-4
  // in all); the seeds are fixed, so a failure means the method or the code changed.
  const double bound = kAlpha + 4 * testing::proportion_standard_error(kAlpha, kDraws);
  const SamplingModel poisson32{ModelKind::poisson_bytes, 32768, "poisson"};
  const SamplingModel poisson64{ModelKind::poisson_bytes, 65536, "poisson"};
  const SamplingModel poisson512{ModelKind::poisson_bytes, 524288, "poisson"};
  const std::vector<std::vector<SamplingModel>> fleets{{kGo32, kGo64, kGo512}, {poisson32, poisson64, poisson512}};
  const std::vector<Site> sites{
      {64, {4096, 4096, 4096}},    // 256 KiB in each profile
      {4096, {64, 64, 64}},        // 256 KiB in each
      {4096, {1024, 1024, 1024}},  // 4 MiB in each
      {1 << 20, {4, 4, 4}},        // 4 MiB in each, in objects the 512 KiB profile often misses
      {64, {0, 0, 16384}},         // 1 MiB, all at 512 KiB (the worst case)
      {4096, {2048, 0, 16}},       // 8 MiB at 32 KiB, 64 KiB at 512 KiB
  };
  std::uint64_t seed = 1;
  for (const auto& fleet : fleets) {
    for (const Site& site : sites) {
      const double missed = miss_rate(fleet, site, kDraws, seed++);
      std::printf("mixed-rate coverage: %s, %.0f-byte objects, %.0f/%.0f/%.0f at 32/64/512 KiB: %.4f missed\n",
                  profile::model_name(fleet.front().kind).c_str(), site.size, site.objects[0], site.objects[1],
                  site.objects[2], missed);
      EXPECT_LE(missed, bound) << profile::model_name(fleet.front().kind) << ", size " << site.size;
    }
  }
}

}  // namespace
}  // namespace allocsim
