#pragma once
// `optimal-size-class`: each allocation is sampled independently with the
// probability p_Z of its size class Z from the optimal design (design/optimal_design.h,
// the open question of jemalloc's doc_internal/PROFILING_INTERNALS.md): the p_Z that minimise the
// chosen objective's variance for the trace being replayed, at a given expected
// number of samples. The design is solved from the trace when the scheme first
// sees it. A sampled allocation weighs Z / p_Z (Horvitz-Thompson, unbiased for
// every class with p_Z > 0); its variance is Z^2 (1 - p_Z) / p_Z.
//
// Classes: "exact" (every distinct requested size is its own class, estimates
// requested bytes) or "jemalloc" (jemalloc's size classes, estimates usable bytes).
// This is the best any size-dependent sampler can do, not one system's code.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/design/optimal_design.h"
#include "allocsim/design/size_class_demand.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

enum class SizeClassTable { exact, jemalloc };

struct OptimalSizeClassConfig {
  double samples = 100;  // the budget P: expected samples over the trace
  DesignObjective objective = DesignObjective::allocated;
  SizeClassTable classes = SizeClassTable::exact;
  StackObjective stacks;  // the stack objective's stack share and total weight
};

// Z for a request of `requested` bytes under the class table.
std::uint64_t class_size(SizeClassTable table, std::uint64_t requested);

struct OptimalSizeClassPlan {
  std::vector<std::uint64_t> measured;  // Z_i per allocation
  SizeClassDemand demand;
  OptimalDesign design;
  std::vector<double> probability;  // p_Z of allocation i's class
};

OptimalSizeClassPlan plan_optimal_size_class(const Trace& trace, const OptimalSizeClassConfig& config);

class OptimalSizeClassSampler {
 public:
  explicit OptimalSizeClassSampler(std::shared_ptr<const OptimalSizeClassPlan> plan) : plan_(std::move(plan)) {}

  // One uniform u in (0, 1] per allocation from its thread's lane; sampled when
  // u <= p_i, which has probability exactly p_i.
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) const {
    const double* p = plan_->probability.data();
    const std::uint64_t* z = plan_->measured.data();
    const ThreadColumn& thread = trace.thread;
    for (std::size_t i = 0; i < trace.size(); ++i) {
      if (lanes[thread[i]].next_uniform() <= p[i]) {
        out.push_back({i, 1, 0, static_cast<double>(z[i]) / p[i]});
      }
    }
  }

 private:
  std::shared_ptr<const OptimalSizeClassPlan> plan_;
};

SchemeDescriptor optimal_size_class_scheme();

}  // namespace allocsim
