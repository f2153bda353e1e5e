#pragma once
// Runs replications of one scheme on one trace and accumulates, per group, window
// and estimator, the error of the estimate against the truth. One evaluator per
// worker thread; a block of replications yields a BlockResult that the caller
// merges in block order.
#include <memory>
#include <vector>

#include "allocsim/engine/random_stream.h"
#include "allocsim/sampler/scheme.h"
#include "allocsim/stats/error_accumulator.h"
#include "allocsim/stats/groups.h"
#include "allocsim/stats/interval_accumulator.h"
#include "allocsim/stats/truth.h"

namespace allocsim {

// Position of (group slot, window, estimator) in the flat per-scheme arrays.
inline std::size_t accumulator_index(std::size_t estimator_count, std::uint32_t slot, Window window,
                                     std::size_t estimator) {
  return (slot * kWindowCount + static_cast<std::size_t>(window)) * estimator_count + estimator;
}

// Per replication, for one group kind (other than total), window and estimator:
// the distance between the estimated and the true profile, and the number of
// groups that got at least one sample.
struct ProfileAccumulator {
  Moments distance;
  Moments groups_seen;
};

struct BlockResult {
  // Indexed by accumulator_index(estimators, slot, window, estimator).
  std::vector<ErrorAccumulator> accumulators;
  // Indexed by accumulator_index(intervals, slot, window, interval).
  std::vector<IntervalAccumulator> intervals;
  // Indexed by SchemeEvaluator::profile_index(kind, window, estimator).
  std::vector<ProfileAccumulator> profiles;
  // [replication in block][estimator]: estimates for the whole trace (allocated
  // window), kept only when requested and the "total" group is evaluated.
  std::vector<double> total_estimates;

  void merge(const BlockResult& later);
};

class SchemeEvaluator {
 public:
  // `index` non-null selects skip-ahead replay where the scheme has it.
  SchemeEvaluator(const Trace& trace, const ThreadIndex* index, const GroupIndex& groups,
                  const Truth& truth, const Scheme& scheme, const std::vector<Window>& windows,
                  double interval_level, bool keep_total_estimates);

  BlockResult run_block(const StreamKey& first, std::uint64_t count);

  static std::size_t profile_index(std::size_t kind, Window window, std::size_t estimator,
                                   std::size_t estimator_count) {
    return (kind * kWindowCount + static_cast<std::size_t>(window)) * estimator_count + estimator;
  }

 private:
  void replicate(const StreamKey& key, BlockResult& result);
  void sum_registers();
  void estimate_groups(BlockResult& result);
  void accumulate_errors(BlockResult& result);
  void accumulate_profiles(BlockResult& result);
  std::size_t profile_index(std::size_t kind, Window window, std::size_t estimator) const {
    return profile_index(kind, window, estimator, estimator_count_);
  }

  const Trace& trace_;
  const GroupIndex& groups_;
  const Scheme& scheme_;
  std::vector<Window> windows_;
  double interval_level_;
  bool keep_total_estimates_;  // only when the "total" group kind is present
  std::uint32_t total_slot_ = 0;
  std::size_t estimator_count_;
  std::size_t register_count_;                  // W: registers over all estimators
  std::vector<std::size_t> first_register_;     // per estimator
  std::unique_ptr<SchemeRun> run_;
  // Buffers reused across replications: no allocation once they have grown.
  std::vector<Observation> observations_;
  std::vector<double> contributions_;
  std::vector<double> registers_;        // [slot][window][register]
  std::vector<std::uint8_t> sampled_;    // [slot][window]: any observation in the group
  std::vector<double> estimates_;        // same layout as the accumulators
  std::vector<double> truth_values_;     // same layout as the accumulators
};

}  // namespace allocsim
