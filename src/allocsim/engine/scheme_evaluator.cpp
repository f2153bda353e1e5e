#include "allocsim/engine/scheme_evaluator.h"

#include <algorithm>
#include <cmath>

namespace allocsim {

void BlockResult::merge(const BlockResult& later) {
  if (accumulators.empty()) {
    *this = later;
    return;
  }
  for (std::size_t i = 0; i < accumulators.size(); ++i) accumulators[i].merge(later.accumulators[i]);
  for (std::size_t i = 0; i < intervals.size(); ++i) intervals[i].merge(later.intervals[i]);
  for (std::size_t i = 0; i < profiles.size(); ++i) {
    profiles[i].distance.merge(later.profiles[i].distance);
    profiles[i].groups_seen.merge(later.profiles[i].groups_seen);
  }
  total_estimates.insert(total_estimates.end(), later.total_estimates.begin(), later.total_estimates.end());
}

namespace {

// The index of the "total" group kind, or kind_count() when there is none.
std::size_t total_kind(const GroupIndex& groups) {
  std::size_t k = 0;
  while (k < groups.kind_count() && groups.kind(k) != GroupKind::total) ++k;
  return k;
}

}  // namespace

BlockShape block_shape(const GroupIndex& groups, const Scheme& scheme, const std::vector<Window>& windows,
                       bool keep_total_estimates) {
  const std::size_t estimators = scheme.estimators().size();
  const bool has_total = total_kind(groups) < groups.kind_count();
  const bool has_allocated = std::find(windows.begin(), windows.end(), Window{}) != windows.end();
  return {SlotLayout{windows.size(), estimators}.size(groups.slot_count()),
          SlotLayout{windows.size(), scheme.intervals().size()}.size(groups.slot_count()),
          groups.kind_count() * windows.size() * estimators,
          keep_total_estimates && has_total && has_allocated ? estimators : 0};
}

SchemeEvaluator::SchemeEvaluator(const Trace& trace, const PreparedScheme& prepared, const GroupIndex& groups,
                                 const Truth& truth, const Scheme& scheme, const std::vector<Window>& windows,
                                 double interval_level, bool keep_total_estimates)
    : trace_(trace),
      groups_(groups),
      scheme_(scheme),
      windows_(windows),
      interval_level_(interval_level),
      shape_(block_shape(groups, scheme, windows, keep_total_estimates)),
      estimator_count_(scheme.estimators().size()),
      replay_(scheme, trace, prepared) {
  estimator_layout_ = {windows_.size(), estimator_count_};
  register_layout_ = {windows_.size(), replay_.layout().width()};
  interval_layout_ = {windows_.size(), scheme.intervals().size()};
  const std::uint32_t slots = groups.slot_count();
  if (shape_.estimates_per_replication > 0) {
    total_slot_ = groups.first_slot(total_kind(groups));
    allocated_window_ =
        static_cast<std::size_t>(std::find(windows_.begin(), windows_.end(), Window{}) - windows_.begin());
  }
  estimates_.assign(estimator_layout_.size(slots), 0.0);
  registers_.assign(register_layout_.size(slots), 0.0);
  sampled_.assign(SlotLayout{windows_.size(), 1}.size(slots), 0);
  truth_values_.assign(estimates_.size(), 0.0);
  for (std::uint32_t slot = 0; slot < slots; ++slot) {
    for (std::size_t w = 0; w < windows_.size(); ++w) {
      for (std::size_t e = 0; e < estimator_count_; ++e) {
        truth_values_[estimator_layout_.at(slot, w, e)] =
            Truth::value(truth.at(slot, w), scheme.estimators()[e].quantity);
      }
    }
  }
}

BlockResult SchemeEvaluator::run_block(const StreamKey& first, std::uint64_t count) {
  BlockResult result;
  result.accumulators.resize(shape_.accumulators);
  result.intervals.resize(shape_.intervals);
  result.profiles.resize(shape_.profiles);
  result.total_estimates.reserve(count * shape_.estimates_per_replication);
  StreamKey key = first;
  for (std::uint64_t r = 0; r < count; ++r, ++key.replication) replicate(key, result);
  return result;
}

void SchemeEvaluator::replicate(const StreamKey& key, BlockResult& result) {
  replay_.replay(key);
  sum_registers();
  estimate_groups(result);
  accumulate_errors(result);
  accumulate_profiles(result);
}

void SchemeEvaluator::sum_registers() {
  const std::vector<Observation>& observations = replay_.observations();
  const std::size_t W = replay_.layout().width();
  std::fill(registers_.begin(), registers_.end(), 0.0);
  std::fill(sampled_.begin(), sampled_.end(), 0);
  // The observations' group slots first, in a loop of independent loads: skip-ahead
  // leaves the group columns cold, and a loop that does nothing else lets the
  // processor overlap their cache misses.
  const std::size_t K = groups_.kind_count();
  slots_.resize(observations.size() * K);
  for (std::size_t o = 0; o < observations.size(); ++o) {
    for (std::size_t k = 0; k < K; ++k) slots_[o * K + k] = groups_.slot_of(k, observations[o].event);
  }
  for (std::size_t o = 0; o < observations.size(); ++o) {
    const std::size_t event = observations[o].event;
    const double* contribution = replay_.registers(o).data();
    observation_windows_.clear();
    for (std::size_t w = 0; w < windows_.size(); ++w) {
      if (windows_[w].contains(trace_, event)) observation_windows_.push_back(w);
    }
    for (std::size_t k = 0; k < K; ++k) {
      const std::uint32_t slot = slots_[o * K + k];
      for (std::size_t w : observation_windows_) {
        double* group_registers = &registers_[register_layout_.at(slot, w, 0)];
        for (std::size_t j = 0; j < W; ++j) group_registers[j] += contribution[j];
        sampled_[slot * windows_.size() + w] = 1;
      }
    }
  }
}

void SchemeEvaluator::estimate_groups(BlockResult& result) {
  const std::size_t E = estimator_count_;
  const auto& interval_specs = scheme_.intervals();
  for (std::uint32_t slot = 0; slot < groups_.slot_count(); ++slot) {
    for (std::size_t w = 0; w < windows_.size(); ++w) {
      const double* group_registers = &registers_[register_layout_.at(slot, w, 0)];
      double* estimate = &estimates_[estimator_layout_.at(slot, w, 0)];
      for (std::size_t e = 0; e < E; ++e) {
        estimate[e] = estimate_from_registers(scheme_, e, replay_.layout().of(e, group_registers));
      }
      for (std::size_t j = 0; j < interval_specs.size(); ++j) {
        const std::size_t e = interval_specs[j].estimator;
        const double truth = truth_values_[estimator_layout_.at(slot, w, e)];
        if (!(truth > 0)) continue;
        result.intervals[interval_layout_.at(slot, w, j)].add(
            scheme_.interval(j, replay_.layout().of(e, group_registers), interval_level_), truth);
      }
    }
  }
}

void SchemeEvaluator::accumulate_errors(BlockResult& result) {
  const std::size_t E = estimator_count_;
  for (std::uint32_t slot = 0; slot < groups_.slot_count(); ++slot) {
    for (std::size_t w = 0; w < windows_.size(); ++w) {
      const bool any = sampled_[slot * windows_.size() + w] != 0;
      const std::size_t base = estimator_layout_.at(slot, w, 0);
      for (std::size_t e = 0; e < E; ++e) {
        result.accumulators[base + e].add(estimates_[base + e], truth_values_[base + e], any);
      }
    }
  }
  if (shape_.estimates_per_replication > 0) {
    const std::size_t base = estimator_layout_.at(total_slot_, allocated_window_, 0);
    result.total_estimates.insert(result.total_estimates.end(), estimates_.begin() + base,
                                  estimates_.begin() + base + E);
  }
}

// The profile as a whole: the total variation distance between the estimated and
// the true share of each group, 1/2 sum_g |e_g / sum e - t_g / sum t| (1 when the
// profile is empty), and how many of the groups holding truth got a sample.
void SchemeEvaluator::accumulate_profiles(BlockResult& result) {
  const std::size_t E = estimator_count_;
  for (std::size_t k = 0; k < groups_.kind_count(); ++k) {
    if (groups_.kind(k) == GroupKind::total) continue;
    const std::uint32_t first = groups_.first_slot(k), count = groups_.group_count(k);
    for (std::size_t w = 0; w < windows_.size(); ++w) {
      std::size_t seen = 0;
      for (std::uint32_t g = 0; g < count; ++g) seen += sampled_[(first + g) * windows_.size() + w];
      for (std::size_t e = 0; e < E; ++e) {
        double estimate_sum = 0, truth_sum = 0;
        for (std::uint32_t g = 0; g < count; ++g) {
          const std::size_t i = estimator_layout_.at(first + g, w, e);
          estimate_sum += estimates_[i];
          truth_sum += truth_values_[i];
        }
        double distance = 1.0;
        if (estimate_sum > 0 && truth_sum > 0) {
          distance = 0;
          for (std::uint32_t g = 0; g < count; ++g) {
            const std::size_t i = estimator_layout_.at(first + g, w, e);
            distance += std::fabs(estimates_[i] / estimate_sum - truth_values_[i] / truth_sum);
          }
          distance /= 2;
        }
        ProfileAccumulator& profile = result.profiles[profile_index(k, w, e)];
        profile.distance.add(distance);
        profile.groups_seen.add(static_cast<double>(seen));
      }
    }
  }
}

}  // namespace allocsim
