#include "allocsim/design/size_class_demand.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace allocsim {

std::vector<double> objective_weights(const Trace& trace, std::span<const std::uint64_t> measured,
                                      DesignObjective objective, const StackObjective& stacks) {
  const std::size_t n = trace.size();
  std::vector<double> weights(n, 1.0);
  if (objective == DesignObjective::live) {
    for (std::size_t i = 0; i < n; ++i) weights[i] = trace.live_at_end(i) ? 1.0 : 0.0;
  } else if (objective == DesignObjective::stack) {
    std::vector<double> stack_bytes(trace.stack_count, 0.0);
    double total = 0;
    for (std::size_t i = 0; i < n; ++i) {
      stack_bytes[trace.stack[i]] += static_cast<double>(measured[i]);
      total += static_cast<double>(measured[i]);
    }
    for (std::size_t i = 0; i < n; ++i) {
      const double b = stack_bytes[trace.stack[i]];
      weights[i] = (total > 0 ? stacks.total_weight / (total * total) : 0.0) +
                   (b > 0 && b >= stacks.share * total ? 1.0 / (b * b) : 0.0);
    }
  }
  return weights;
}

// The distinct sizes are found with a hash per allocation and only they are sorted,
// not every allocation's size: a trace has far fewer classes than allocations.
SizeClassDemand size_class_demand(std::span<const std::uint64_t> measured, std::span<const double> weights) {
  std::unordered_map<std::uint64_t, std::uint32_t> first_seen;  // size -> its index in order of first sight
  std::vector<std::uint64_t> seen_sizes;                        // in that order
  std::vector<std::uint32_t> seen_as(measured.size());
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const auto [at, added] = first_seen.try_emplace(measured[i], static_cast<std::uint32_t>(seen_sizes.size()));
    if (added) seen_sizes.push_back(measured[i]);
    seen_as[i] = at->second;
  }
  std::vector<std::uint32_t> by_size(seen_sizes.size());
  std::iota(by_size.begin(), by_size.end(), 0u);
  std::sort(by_size.begin(), by_size.end(),
            [&](std::uint32_t a, std::uint32_t b) { return seen_sizes[a] < seen_sizes[b]; });
  SizeClassDemand demand;
  std::vector<std::uint32_t> rank(by_size.size());
  for (std::size_t r = 0; r < by_size.size(); ++r) {
    rank[by_size[r]] = static_cast<std::uint32_t>(r);
    demand.sizes.push_back(seen_sizes[by_size[r]]);
  }
  const auto classes = static_cast<Eigen::Index>(demand.sizes.size());
  demand.cost = Eigen::VectorXd::Zero(classes);
  demand.allocations = Eigen::VectorXd::Zero(classes);
  demand.class_of.resize(measured.size());
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const std::uint32_t z = rank[seen_as[i]];
    demand.class_of[i] = z;
    const double size = static_cast<double>(measured[i]);
    demand.cost[z] += weights[i] * size * size;
    demand.allocations[z] += 1;
  }
  return demand;
}

}  // namespace allocsim
