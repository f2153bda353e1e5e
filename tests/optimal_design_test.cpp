// The optimal size-class design (design/optimal_design.h): exact on hand-solved
// problems, equal to an independent root search for the KKT multiplier, and no
// worse than any design a brute-force grid finds on small problems.
#include <gtest/gtest.h>

#include <boost/math/tools/roots.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "allocsim/design/optimal_design.h"

namespace allocsim {
namespace {

Eigen::VectorXd vec(std::initializer_list<double> values) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (const double x : values) v[i++] = x;
  return v;
}

TEST(OptimalDesign, UnclippedProbabilitiesAreProportionalToSizeForTheAllocatedObjective) {
  // c_Z = n_Z Z^2, a_Z = n_Z: p_Z = Z / sqrt(lambda) with sqrt(lambda) = sum n_Z Z / P,
  // i.e. p_Z = P Z / (bytes in all): per-byte sampling's small-size limit.
  const Eigen::VectorXd sizes = vec({16, 64, 512}), counts = vec({100, 50, 10});
  const Eigen::VectorXd cost = counts.cwiseProduct(sizes.cwiseProduct(sizes));
  const double budget = 10, bytes = counts.dot(sizes);  // 1600 + 3200 + 5120 = 9920
  const OptimalDesign d = solve_optimal_design(cost, counts, budget);
  for (Eigen::Index z = 0; z < 3; ++z) EXPECT_NEAR(d.probability[z], budget * sizes[z] / bytes, 1e-15);
  EXPECT_NEAR(d.multiplier, std::pow(bytes / budget, 2), 1e-9);
  EXPECT_NEAR(d.expected_samples, budget, 1e-12);
  // V = sum n Z^2 (1/p - 1) = sum n Z (bytes / P) - sum n Z^2.
  EXPECT_NEAR(d.variance, bytes * bytes / budget - cost.sum(), 1e-6);
}

TEST(OptimalDesign, ClipsTheLargestRatiosAtOne) {
  // c = (1, 100), a = (1, 1), P = 1.5. Unclipped, sqrt(lambda) = (1 + 10) / 1.5 and
  // p_2 = 10 / 7.33 > 1; clipping class 2 leaves sqrt(lambda) = 1 / 0.5 = 2, p_1 = 1/2.
  const OptimalDesign d = solve_optimal_design(vec({1, 100}), vec({1, 1}), 1.5);
  EXPECT_DOUBLE_EQ(d.probability[0], 0.5);
  EXPECT_DOUBLE_EQ(d.probability[1], 1.0);
  EXPECT_DOUBLE_EQ(d.multiplier, 4.0);
  EXPECT_DOUBLE_EQ(d.variance, 1.0);  // 1 * (1 - 1/2) / (1/2)
}

TEST(OptimalDesign, AmpleBudgetSamplesEverythingAndIgnoredClassesNever) {
  const OptimalDesign d = solve_optimal_design(vec({4, 0, 9}), vec({2, 5, 3}), 6);
  EXPECT_EQ(d.probability[0], 1.0);
  EXPECT_EQ(d.probability[1], 0.0);  // c = 0: outside the objective
  EXPECT_EQ(d.probability[2], 1.0);
  EXPECT_EQ(d.variance, 0.0);
  EXPECT_EQ(d.multiplier, 0.0);
  EXPECT_EQ(d.expected_samples, 5.0);
}

TEST(OptimalDesign, RejectsBadInput) {
  EXPECT_THROW(solve_optimal_design(vec({1}), vec({1, 2}), 1), std::invalid_argument);
  EXPECT_THROW(solve_optimal_design(vec({-1}), vec({1}), 1), std::invalid_argument);
  EXPECT_THROW(solve_optimal_design(vec({1}), vec({1}), 0), std::invalid_argument);
  EXPECT_THROW(solve_optimal_design(vec({std::nan("")}), vec({1}), 1), std::invalid_argument);
}

// Random problems with a binding budget: the multiplier from Boost's TOMS 748 root
// search on B(lambda) = sum a_Z min(1, sqrt(c_Z / (lambda a_Z))) - P (continuous and
// decreasing in lambda) gives the same design.
TEST(OptimalDesign, MatchesARootSearchForTheMultiplier) {
  std::mt19937_64 random(20261121);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    const Eigen::Index k = 2 + trial % 7;
    Eigen::VectorXd cost(k), allocations(k);
    for (Eigen::Index z = 0; z < k; ++z) {
      cost[z] = std::pow(10.0, 6 * uniform(random));
      allocations[z] = 1 + std::floor(100 * uniform(random));
    }
    const double budget = (0.05 + 0.9 * uniform(random)) * allocations.sum();
    const OptimalDesign d = solve_optimal_design(cost, allocations, budget);
    auto spent = [&](double log_lambda) {
      double b = 0;
      for (Eigen::Index z = 0; z < k; ++z) {
        b += allocations[z] * std::min(1.0, std::sqrt(cost[z] / (std::exp(log_lambda) * allocations[z])));
      }
      return b - budget;
    };
    std::uintmax_t iterations = 200;
    const auto [lo, hi] = boost::math::tools::toms748_solve(spent, -60.0, 60.0,
                                                            boost::math::tools::eps_tolerance<double>(50), iterations);
    const double lambda = std::exp((lo + hi) / 2);
    EXPECT_NEAR(d.multiplier, lambda, 1e-9 * lambda) << "trial " << trial;
    for (Eigen::Index z = 0; z < k; ++z) {
      const double p = std::min(1.0, std::sqrt(cost[z] / (lambda * allocations[z])));
      EXPECT_NEAR(d.probability[z], p, 1e-9) << "trial " << trial << " class " << z;
    }
    EXPECT_NEAR(d.expected_samples, budget, 1e-9 * budget);
  }
}

// Three classes: every design on a grid of step h = 1/400 over (p_1, p_2) in (0, 1]^2
// with p_3 spending the rest of the budget (the optimum spends it all: V falls in
// every p_Z) is no better than the solver's, and the grid's best is within the step's
// reach of it. For q on the budget plane (sum a_Z q_Z = P), d = q - p*, exactly
//   V(q) - V(p*) = sum c_Z (1/q_Z - 1/p*_Z) = -sum c_Z d_Z / p*_Z^2 + sum c_Z d_Z^2 / (p*_Z^2 q_Z).
// KKT: c_Z / p*_Z^2 = lambda a_Z where p*_Z < 1, c_Z >= lambda a_Z where p*_Z = 1.
// Take the grid point nearest p* (|d_1|, |d_2| <= h/2; d = 0 for a class at 1, which
// is on the grid); then |d_3| <= (a_1 |d_1| + a_2 |d_2|) / a_3 and the first sum is
// -lambda sum a_Z d_Z = 0. If p*_3 = 1, round p_1, p_2 up instead (0 <= d <= h) so
// that q_3 <= 1; the first sum is then (a_1 d_1 + a_2 d_2)(c_3 / a_3 - lambda) >= 0.
// Bounding q_Z >= p*_Z - |d_Z| gives the grid's largest possible distance from V(p*).
TEST(OptimalDesign, NoGridDesignBeatsTheSolverOnSmallProblems) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (int trial = 0; trial < 10; ++trial) {
    const Eigen::VectorXd cost = vec({std::pow(10.0, 4 * uniform(random)), std::pow(10.0, 4 * uniform(random)),
                                      std::pow(10.0, 4 * uniform(random))});
    const Eigen::VectorXd allocations = vec({1 + std::floor(20 * uniform(random)), 1 + std::floor(20 * uniform(random)),
                                             1 + std::floor(20 * uniform(random))});
    const double budget = (0.2 + 0.6 * uniform(random)) * allocations.sum();
    const OptimalDesign d = solve_optimal_design(cost, allocations, budget);
    double best = std::numeric_limits<double>::infinity();
    constexpr int kSteps = 400;
    for (int i = 1; i <= kSteps; ++i) {
      for (int j = 1; j <= kSteps; ++j) {
        const double p1 = double(i) / kSteps, p2 = double(j) / kSteps;
        const double p3 = (budget - allocations[0] * p1 - allocations[1] * p2) / allocations[2];
        if (!(p3 > 0)) continue;
        const double v = design_variance(cost, vec({p1, p2, std::min(1.0, p3)}));
        EXPECT_GE(v, d.variance * (1 - 1e-12)) << "trial " << trial;
        best = std::min(best, v);
      }
    }
    const double h = 1.0 / kSteps, lambda = d.multiplier;
    const bool third_at_one = d.probability[2] >= 1;
    double reach[3];
    for (Eigen::Index z = 0; z < 2; ++z) reach[z] = d.probability[z] >= 1 ? 0 : third_at_one ? h : h / 2;
    const double budget_shift = allocations[0] * reach[0] + allocations[1] * reach[1];
    reach[2] = budget_shift / allocations[2];
    ASSERT_LE(d.probability[2] + (third_at_one ? 0 : reach[2]), 1.0) << "trial " << trial;
    double gap = third_at_one ? budget_shift * (cost[2] / allocations[2] - lambda) : 0;
    for (Eigen::Index z = 0; z < 3; ++z) {
      const double p = d.probability[z];
      ASSERT_GT(p, reach[z]) << "trial " << trial << " class " << z;
      gap += cost[z] * reach[z] * reach[z] / (p * p * (p - reach[z]));
    }
    EXPECT_LE(best, d.variance + gap + 1e-12 * d.variance) << "trial " << trial;
  }
}

}  // namespace
}  // namespace allocsim
