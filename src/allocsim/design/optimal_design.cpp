#include "allocsim/design/optimal_design.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace allocsim {
namespace {

void validate(const Eigen::VectorXd& cost, const Eigen::VectorXd& allocations, double budget) {
  if (cost.size() != allocations.size()) throw std::invalid_argument("cost and allocations differ in length");
  if (!(budget > 0) || !std::isfinite(budget)) throw std::invalid_argument("budget must be positive and finite");
  for (Eigen::Index z = 0; z < cost.size(); ++z) {
    if (!(cost[z] >= 0) || !std::isfinite(cost[z]) || !(allocations[z] >= 0) || !std::isfinite(allocations[z])) {
      throw std::invalid_argument("costs and allocations must be finite and non-negative");
    }
  }
}

}  // namespace

double design_variance(const Eigen::VectorXd& cost, const Eigen::VectorXd& probability) {
  double v = 0;
  for (Eigen::Index z = 0; z < cost.size(); ++z) {
    if (cost[z] == 0) continue;
    if (probability[z] <= 0) return std::numeric_limits<double>::infinity();
    v += cost[z] * (1 - probability[z]) / probability[z];
  }
  return v;
}

OptimalDesign solve_optimal_design(const Eigen::VectorXd& cost, const Eigen::VectorXd& allocations, double budget) {
  validate(cost, allocations, budget);
  OptimalDesign design;
  design.probability = Eigen::VectorXd::Zero(cost.size());
  // Classes that enter the objective, by c_Z / a_Z descending (those without
  // allocations cost nothing: p_Z = 1).
  std::vector<Eigen::Index> order;
  for (Eigen::Index z = 0; z < cost.size(); ++z) {
    if (cost[z] == 0) continue;
    if (allocations[z] == 0) {
      design.probability[z] = 1;
      continue;
    }
    order.push_back(z);
  }
  std::sort(order.begin(), order.end(),
            [&](Eigen::Index x, Eigen::Index y) { return cost[x] * allocations[y] > cost[y] * allocations[x]; });
  const double needed = std::accumulate(order.begin(), order.end(), 0.0,
                                        [&](double sum, Eigen::Index z) { return sum + allocations[z]; });
  if (needed <= budget) {
    for (const Eigen::Index z : order) design.probability[z] = 1;
  } else {
    // Suffix sums of sqrt(c_Z a_Z): the unclipped classes' share of the budget.
    std::vector<double> root_suffix(order.size() + 1, 0.0);
    for (std::size_t k = order.size(); k-- > 0;) {
      root_suffix[k] = root_suffix[k + 1] + std::sqrt(cost[order[k]] * allocations[order[k]]);
    }
    // While prefix k is wrongly left unclipped (its first ratio exceeds the
    // root_lambda it implies), root_lambda falls as k grows, so the first k that
    // passes is the solution; one always does, since the budget is below `needed`.
    double clipped_allocations = 0;
    for (std::size_t k = 0; k < order.size(); ++k) {
      // Clip order[0..k); the rest get sqrt(c_Z / a_Z) / sqrt(lambda).
      const double root_lambda = root_suffix[k] / (budget - clipped_allocations);
      const Eigen::Index first = order[k];
      if (std::sqrt(cost[first] / allocations[first]) <= root_lambda) {
        design.multiplier = root_lambda * root_lambda;
        for (std::size_t j = 0; j < order.size(); ++j) {
          const Eigen::Index z = order[j];
          design.probability[z] = j < k ? 1.0 : std::min(1.0, std::sqrt(cost[z] / allocations[z]) / root_lambda);
        }
        break;
      }
      clipped_allocations += allocations[first];
    }
  }
  design.variance = design_variance(cost, design.probability);
  design.expected_samples = allocations.dot(design.probability);
  return design;
}

}  // namespace allocsim
