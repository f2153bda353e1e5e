#include "allocsim/stats/moments.h"

#include <gtest/gtest.h>

#include <limits>

#include "allocsim/stats/block_moments.h"

#include <cmath>
#include <vector>

namespace allocsim {
namespace {

// Two-pass reference for the central moments.
struct Reference {
  double mean = 0, m2 = 0, m4 = 0;
};
Reference two_pass(const std::vector<double>& xs) {
  Reference r;
  for (double x : xs) r.mean += x;
  r.mean /= static_cast<double>(xs.size());
  for (double x : xs) {
    const double d = x - r.mean;
    r.m2 += d * d;
    r.m4 += d * d * d * d;
  }
  return r;
}

std::vector<double> sample_values() {
  std::vector<double> xs;
  for (int i = 0; i < 1000; ++i) xs.push_back(1e9 + std::sin(i * 0.7) * 1000.0 + (i % 7) * 13.0);
  return xs;
}

TEST(Moments, SequentialAddMatchesTwoPass) {
  const auto xs = sample_values();
  Moments m;
  for (double x : xs) m.add(x);
  const Reference r = two_pass(xs);
  EXPECT_EQ(m.count(), xs.size());
  EXPECT_NEAR(m.mean(), r.mean, 1e-6);
  EXPECT_NEAR(m.variance(), r.m2 / (xs.size() - 1), 1e-6 * r.m2 / xs.size());
}

TEST(Moments, MergeOfBlocksMatchesTwoPass) {
  const auto xs = sample_values();
  Moments merged;
  for (std::size_t start = 0; start < xs.size(); start += 37) {
    Moments block;
    for (std::size_t i = start; i < std::min(xs.size(), start + 37); ++i) block.add(xs[i]);
    merged.merge(block);
  }
  const Reference r = two_pass(xs);
  const double n = static_cast<double>(xs.size());
  EXPECT_NEAR(merged.mean(), r.mean, 1e-6);
  EXPECT_NEAR(merged.variance(), r.m2 / (n - 1), 1e-9 * r.m2);
  // se of the variance uses the fourth central moment.
  const double var = r.m2 / (n - 1);
  const double expected_se_var = std::sqrt((r.m4 / n - var * var * (n - 3) / (n - 1)) / n);
  EXPECT_NEAR(merged.variance_standard_error(), expected_se_var, 1e-6 * expected_se_var);
}

TEST(Moments, SameMergeOrderGivesSameBits) {
  const auto xs = sample_values();
  auto build = [&] {
    Moments total;
    for (std::size_t start = 0; start < xs.size(); start += 32) {
      Moments block;
      for (std::size_t i = start; i < std::min(xs.size(), start + 32); ++i) block.add(xs[i]);
      total.merge(block);
    }
    return total;
  };
  const Moments a = build(), b = build();
  EXPECT_EQ(a.mean(), b.mean());
  EXPECT_EQ(a.variance(), b.variance());
  EXPECT_EQ(a.variance_standard_error(), b.variance_standard_error());
}

TEST(Moments, EmptyAndSingle) {
  Moments m;
  EXPECT_EQ(m.count(), 0u);
  EXPECT_EQ(m.variance(), 0.0);
  m.add(5.0);
  EXPECT_EQ(m.mean(), 5.0);
  EXPECT_EQ(m.variance(), 0.0);
}

// BlockMoments over blocks of 32 (the engine's): series 0 takes a default of -1e9
// (a group's error without a sample: minus its truth) in the replications where it
// is not listed, series 1 has no default. Each block against the two-pass
// reference of its values, and the blocks merged against that of them all, to the
// same tolerances as the sequential Moments.
TEST(BlockMoments, DefaultsInClosedFormMatchTwoPass) {
  const auto xs = sample_values();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  BlockMoments block({-1e9, nan});
  std::vector<double> all_with_defaults, all_listed;
  Moments merged_with_defaults, merged_listed;
  for (std::size_t start = 0; start < xs.size(); start += 32) {
    const std::size_t count = std::min<std::size_t>(32, xs.size() - start);
    std::vector<double> with_defaults, listed;
    for (std::size_t r = 0; r < count; ++r) {
      const double x = xs[start + r] - 1e9;
      if ((start + r) % 3 == 0) {
        with_defaults.push_back(-1e9);
        continue;
      }
      block.add(0, x);
      block.add(1, x);
      with_defaults.push_back(x);
      listed.push_back(x);
    }
    EXPECT_EQ(block.defaulted(0, count), count - listed.size());
    EXPECT_EQ(block.defaulted(1, count), 0u);
    const Moments a = block.take(0, count), b = block.take(1, count);
    const Reference ra = two_pass(with_defaults), rb = two_pass(listed);
    ASSERT_EQ(a.count(), with_defaults.size());
    ASSERT_EQ(b.count(), listed.size());
    EXPECT_NEAR(a.mean(), ra.mean, 1e-12 * 1e9);
    EXPECT_NEAR(a.raw_m2(), ra.m2, 1e-12 * ra.m2);
    EXPECT_NEAR(b.mean(), rb.mean, 1e-12 * std::fabs(rb.mean) + 1e-9);
    EXPECT_NEAR(b.raw_m2(), rb.m2, 1e-12 * rb.m2);
    merged_with_defaults.merge(a);
    merged_listed.merge(b);
    all_with_defaults.insert(all_with_defaults.end(), with_defaults.begin(), with_defaults.end());
    all_listed.insert(all_listed.end(), listed.begin(), listed.end());
  }
  for (const auto& [merged, values] :
       {std::pair{merged_with_defaults, all_with_defaults}, std::pair{merged_listed, all_listed}}) {
    const Reference r = two_pass(values);
    const double n = static_cast<double>(values.size());
    EXPECT_NEAR(merged.mean(), r.mean, 1e-6);
    EXPECT_NEAR(merged.variance(), r.m2 / (n - 1), 1e-9 * r.m2);
    const double var = r.m2 / (n - 1);
    const double expected_se_var = std::sqrt((r.m4 / n - var * var * (n - 3) / (n - 1)) / n);
    EXPECT_NEAR(merged.variance_standard_error(), expected_se_var, 1e-6 * expected_se_var);
  }
}

// A series with a default, read by listed() before take(), gives the bits of a twin
// series that lists the same values and has no default (how the engine keeps the
// |relative error| given a sample).
TEST(BlockMoments, ListedEqualsATwinWithoutDefault) {
  const auto xs = sample_values();
  BlockMoments block({0.25, std::numeric_limits<double>::quiet_NaN()});
  for (std::size_t start = 0; start < xs.size(); start += 32) {
    const std::size_t replications = std::min<std::size_t>(32, xs.size() - start);
    for (std::size_t r = 0; r < replications; ++r) {
      if ((start + r) % 3 == 0) continue;  // series 0 takes its default
      block.add(0, xs[start + r]);
      block.add(1, xs[start + r]);
    }
    const Moments::State listed = block.listed(0).state();
    const Moments::State twin = block.take(1, replications).state();
    EXPECT_EQ(listed.n, twin.n);
    EXPECT_EQ(listed.mean, twin.mean);
    EXPECT_EQ(listed.m2, twin.m2);
    EXPECT_EQ(listed.m3, twin.m3);
    EXPECT_EQ(listed.m4, twin.m4);
    EXPECT_EQ(block.take(0, replications).count(), replications);  // the defaults count there
    EXPECT_LT(listed.n, replications);
  }
  EXPECT_EQ(block.listed(0).count(), 0u);  // take() started the sums afresh
}

TEST(BlockMoments, ABlockOfDefaultsOnlyIsExact) {
  BlockMoments block({2.5});
  const Moments m = block.take(0, 32);
  EXPECT_EQ(m.count(), 32u);
  EXPECT_EQ(m.mean(), 2.5);
  EXPECT_EQ(m.variance(), 0.0);
  EXPECT_EQ(block.take(0, 0).count(), 0u);
}

}  // namespace
}  // namespace allocsim
