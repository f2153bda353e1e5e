#include "allocsim/stats/moments.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace allocsim
