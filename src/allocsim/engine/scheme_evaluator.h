#pragma once
// Runs replications of one scheme on one trace and accumulates, per group, window
// and estimator, the error of the estimate against the truth. One evaluator per
// worker thread; a block of replications yields a BlockResult that the caller
// merges in block order.
//
// A replication costs in proportion to the groups that received a sample, not to
// all groups: a group without one has the same estimate and interval in every
// replication (computed once), so its errors and coverage enter the block's
// accumulators in closed form at the end of the block (stats/block_moments.h), and
// only the groups sampled are estimated, accumulated and cleared.
#include <memory>
#include <vector>

#include "allocsim/engine/scheme_replay.h"
#include "allocsim/random/random_stream.h"
#include "allocsim/sampler/register_rows.h"
#include "allocsim/sampler/scheme.h"
#include "allocsim/stats/block_moments.h"
#include "allocsim/stats/error_accumulator.h"
#include "allocsim/stats/groups.h"
#include "allocsim/stats/interval_accumulator.h"
#include "allocsim/stats/truth.h"
#include "allocsim/stats/window.h"

namespace allocsim {

// Position of (group slot, window, entry) in a flat per-scheme array, where the
// entries are the scheme's estimators, registers or intervals and the window is
// an index into the scenario's windows.
struct SlotLayout {
  std::size_t windows;
  std::size_t entries;
  std::size_t at(std::uint32_t slot, std::size_t window, std::size_t entry) const {
    return (slot * windows + window) * entries + entry;
  }
  std::size_t size(std::uint32_t slots) const { return slots * windows * entries; }
};

// Per replication, for one group kind (other than total), window and estimator:
// the distance between the estimated and the true profile, and the number of
// groups that got at least one sample.
struct ProfileAccumulator {
  Moments distance;
  Moments groups_seen;
};

struct BlockResult {
  // Indexed by SlotLayout{windows, estimators}.at(slot, window, estimator).
  std::vector<ErrorAccumulator> accumulators;
  // Indexed by SlotLayout{windows, intervals}.at(slot, window, interval).
  std::vector<IntervalAccumulator> intervals;
  // Indexed by SchemeEvaluator::profile_index(kind, window, estimator).
  std::vector<ProfileAccumulator> profiles;
  // [replication in block][estimator]: estimates for the whole trace (allocated
  // window), kept only when requested and the "total" group and the allocated
  // window are evaluated.
  std::vector<double> total_estimates;

  void merge(const BlockResult& later);
};

// The sizes of the BlockResult of a block of replications of `scheme` on a trace
// with `groups` and `windows`: what run_block makes, and what a block read from a
// part file must have before it is merged.
struct BlockShape {
  std::size_t accumulators = 0;
  std::size_t intervals = 0;
  std::size_t profiles = 0;
  std::size_t estimates_per_replication = 0;  // total_estimates kept per replication; 0: none
};
BlockShape block_shape(const GroupIndex& groups, const Scheme& scheme, const std::vector<Window>& windows,
                       bool keep_total_estimates);

class SchemeEvaluator {
 public:
  // `prepared` is `scheme` prepared for `trace` (streaming or skip-ahead); `windows`
  // are resolved for this trace (resolve_windows) and `truth` computed for them.
  SchemeEvaluator(const Trace& trace, const PreparedScheme& prepared, const GroupIndex& groups, const Truth& truth,
                  const Scheme& scheme, const std::vector<Window>& windows, double interval_level,
                  bool keep_total_estimates);

  BlockResult run_block(const StreamKey& first, std::uint64_t count);

  // Profiles are laid out like SlotLayout{windows, estimators} with group kinds
  // in place of slots.
  static std::size_t profile_index(std::size_t kind, std::size_t window, std::size_t estimator,
                                   std::size_t window_count, std::size_t estimator_count) {
    return SlotLayout{window_count, estimator_count}.at(static_cast<std::uint32_t>(kind), window, estimator);
  }

 private:
  void replicate(const StreamKey& key, BlockResult& result);
  void sum_registers();
  void score_sampled(BlockResult& result);
  void accumulate_profiles(BlockResult& result);
  void clear_sampled();
  void fold_block(std::uint64_t count, BlockResult& result);
  std::size_t profile_index(std::size_t kind, std::size_t window, std::size_t estimator) const {
    return profile_index(kind, window, estimator, windows_.size(), estimator_count_);
  }

  const Trace& trace_;
  const GroupIndex& groups_;
  const Scheme& scheme_;
  std::vector<Window> windows_;
  double interval_level_;
  BlockShape shape_;  // keeps total estimates only when the "total" group kind and allocated window are present
  std::uint32_t total_slot_ = 0;
  std::size_t allocated_window_ = 0;
  std::size_t estimator_count_;
  SlotLayout estimator_layout_;
  SlotLayout register_layout_;
  SlotLayout interval_layout_;
  SchemeReplay replay_;  // its RegisterLayout places each estimator's registers in a row of W
  // What a group without a sample gets, the same in every replication.
  std::vector<double> empty_estimates_;    // [estimator]
  std::vector<Interval> empty_intervals_;  // [interval]
  std::vector<double> truth_values_;       // same layout as the accumulators
  std::vector<double> truth_shares_;       // same layout: truth / its kind's total (profiles)
  std::vector<std::uint32_t> slot_kinds_;  // [slot]: its group kind
  // Per profile_index(kind, window, estimator): the sum of the groups' shares of
  // their kind's truth (about 1; 0 when that truth is 0).
  std::vector<double> truth_share_sums_;
  // The block's errors, two series per accumulator (error, |relative error|; the
  // latter's listed values alone are the same given a sample), and interval widths
  // per interval accumulator.
  BlockMoments errors_;
  BlockMoments widths_;
  // Buffers reused across replications: no allocation once they have grown.
  std::vector<std::size_t> observation_windows_;  // windows holding the current observation
  std::vector<std::uint32_t> slots_;              // [observation][group kind]
  struct SampledGroup {
    std::uint32_t slot;
    std::uint32_t window;
  };
  std::vector<SampledGroup> sampled_list_;  // each (group, window) with a sample, in first-sample order
  std::vector<double> registers_;           // [slot][window][register]; zero where not sampled
  std::vector<std::uint8_t> sampled_;       // [slot][window]: any observation in the group
  std::vector<double> estimates_;           // same layout as the accumulators; empty_estimates_ where not sampled
  struct ProfileSums {
    double estimates = 0;      // of the sampled groups, then of all
    double distance = 0;       // sum over the sampled groups of |estimate share - truth share|
    double sampled_share = 0;  // their truth shares
  };
  std::vector<ProfileSums> profile_sums_;    // [profile_index]: this replication's
  std::vector<std::uint32_t> profile_seen_;  // [kind][window]: sampled groups
};

}  // namespace allocsim
