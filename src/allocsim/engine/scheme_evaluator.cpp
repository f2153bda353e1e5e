#include "allocsim/engine/scheme_evaluator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

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
  const std::size_t W = windows_.size(), E = estimator_count_;
  if (shape_.estimates_per_replication > 0) {
    total_slot_ = groups.first_slot(total_kind(groups));
    allocated_window_ =
        static_cast<std::size_t>(std::find(windows_.begin(), windows_.end(), Window{}) - windows_.begin());
  }
  const std::vector<double> no_registers(replay_.layout().width(), 0.0);
  for (std::size_t e = 0; e < E; ++e) {
    empty_estimates_.push_back(estimate_from_registers(scheme, e, replay_.layout().of(e, no_registers.data())));
  }
  for (std::size_t j = 0; j < scheme.intervals().size(); ++j) {
    const std::size_t e = scheme.intervals()[j].estimator;
    empty_intervals_.push_back(scheme.interval(j, replay_.layout().of(e, no_registers.data()), interval_level_));
  }
  registers_.assign(register_layout_.size(slots), 0.0);
  sampled_.assign(SlotLayout{W, 1}.size(slots), 0);
  estimates_.resize(estimator_layout_.size(slots));
  truth_values_.resize(estimates_.size());
  std::vector<double> error_defaults(2 * estimates_.size());
  std::vector<double> width_defaults(interval_layout_.size(slots), std::numeric_limits<double>::quiet_NaN());
  for (std::uint32_t slot = 0; slot < slots; ++slot) {
    for (std::size_t w = 0; w < W; ++w) {
      for (std::size_t e = 0; e < E; ++e) {
        const std::size_t i = estimator_layout_.at(slot, w, e);
        const double value = Truth::value(truth.at(slot, w), scheme.estimators()[e].quantity);
        truth_values_[i] = value;
        estimates_[i] = empty_estimates_[e];
        const double error = empty_estimates_[e] - value;
        error_defaults[2 * i] = error;
        error_defaults[2 * i + 1] = ErrorAccumulator::abs_relative(error, value);
      }
      // An interval is scored only where its truth is positive (score_sampled).
      for (std::size_t j = 0; j < empty_intervals_.size(); ++j) {
        if (truth_values_[estimator_layout_.at(slot, w, scheme.intervals()[j].estimator)] > 0) {
          width_defaults[interval_layout_.at(slot, w, j)] = empty_intervals_[j].upper - empty_intervals_[j].lower;
        }
      }
    }
  }
  errors_ = BlockMoments(std::move(error_defaults));
  widths_ = BlockMoments(std::move(width_defaults));
  slot_kinds_.resize(slots);
  truth_shares_.assign(estimates_.size(), 0.0);
  truth_share_sums_.assign(groups.kind_count() * W * E, 0.0);
  for (std::size_t k = 0; k < groups.kind_count(); ++k) {
    const std::uint32_t first = groups.first_slot(k), count = groups.group_count(k);
    for (std::uint32_t g = 0; g < count; ++g) slot_kinds_[first + g] = static_cast<std::uint32_t>(k);
    for (std::size_t w = 0; w < W; ++w) {
      for (std::size_t e = 0; e < E; ++e) {
        double sum = 0;
        for (std::uint32_t g = 0; g < count; ++g) sum += truth_values_[estimator_layout_.at(first + g, w, e)];
        if (!(sum > 0)) continue;
        for (std::uint32_t g = 0; g < count; ++g) {
          const std::size_t i = estimator_layout_.at(first + g, w, e);
          truth_shares_[i] = truth_values_[i] / sum;
          truth_share_sums_[profile_index(k, w, e)] += truth_shares_[i];
        }
      }
    }
  }
  profile_sums_.resize(truth_share_sums_.size());
  profile_seen_.resize(groups.kind_count() * W);
}

BlockResult SchemeEvaluator::run_block(const StreamKey& first, std::uint64_t count) {
  BlockResult result;
  result.accumulators.resize(shape_.accumulators);
  result.intervals.resize(shape_.intervals);
  result.profiles.resize(shape_.profiles);
  result.total_estimates.reserve(count * shape_.estimates_per_replication);
  StreamKey key = first;
  for (std::uint64_t r = 0; r < count; ++r, ++key.replication) replicate(key, result);
  fold_block(count, result);
  return result;
}

void SchemeEvaluator::replicate(const StreamKey& key, BlockResult& result) {
  replay_.replay(key);
  sum_registers();
  score_sampled(result);
  accumulate_profiles(result);
  if (shape_.estimates_per_replication > 0) {
    const std::size_t base = estimator_layout_.at(total_slot_, allocated_window_, 0);
    result.total_estimates.insert(result.total_estimates.end(), estimates_.begin() + base,
                                  estimates_.begin() + base + estimator_count_);
  }
  clear_sampled();
}

void SchemeEvaluator::sum_registers() {
  const std::vector<Observation>& observations = replay_.observations();
  const std::size_t W = replay_.layout().width();
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
        std::uint8_t& sampled = sampled_[slot * windows_.size() + w];
        if (sampled == 0) sampled_list_.push_back({slot, static_cast<std::uint32_t>(w)});
        sampled = 1;
      }
    }
  }
}

// The sampled groups' estimates, their errors and their intervals' outcomes.
void SchemeEvaluator::score_sampled(BlockResult& result) {
  const std::size_t E = estimator_count_;
  const auto& interval_specs = scheme_.intervals();
  for (const auto [slot, w] : sampled_list_) {
    const double* group_registers = &registers_[register_layout_.at(slot, w, 0)];
    const std::size_t base = estimator_layout_.at(slot, w, 0);
    for (std::size_t e = 0; e < E; ++e) {
      const double estimate = estimate_from_registers(scheme_, e, replay_.layout().of(e, group_registers));
      const double truth = truth_values_[base + e];
      estimates_[base + e] = estimate;
      const double error = estimate - truth;
      const double relative = ErrorAccumulator::abs_relative(error, truth);
      errors_.add(2 * (base + e), error);
      errors_.add(2 * (base + e) + 1, relative);  // also the series given a sample (fold_block)
    }
    for (std::size_t j = 0; j < interval_specs.size(); ++j) {
      const std::size_t e = interval_specs[j].estimator;
      const double truth = truth_values_[base + e];
      if (!(truth > 0)) continue;
      const Interval interval = scheme_.interval(j, replay_.layout().of(e, group_registers), interval_level_);
      const std::size_t i = interval_layout_.at(slot, w, j);
      result.intervals[i].count_outcome(interval, truth, 1);
      widths_.add(i, interval.upper - interval.lower);
    }
  }
}

// The profile as a whole: the total variation distance between the estimated and
// the true share of each group, 1/2 sum_g |e_g / sum e - t_g / sum t| (1 when the
// profile is empty), and how many of the groups holding truth got a sample. A group
// without a sample has the empty estimate c; when c = 0 (every estimator so far) its
// term is its truth share, and those terms sum to the shares of all groups less
// those of the sampled ones, so only the sampled groups are visited.
void SchemeEvaluator::accumulate_profiles(BlockResult& result) {
  const std::size_t E = estimator_count_, W = windows_.size();
  std::fill(profile_sums_.begin(), profile_sums_.end(), ProfileSums{});
  std::fill(profile_seen_.begin(), profile_seen_.end(), 0);
  for (const auto [slot, w] : sampled_list_) {
    const std::size_t k = slot_kinds_[slot];
    ++profile_seen_[k * W + w];
    for (std::size_t e = 0; e < E; ++e) {
      profile_sums_[profile_index(k, w, e)].estimates += estimates_[estimator_layout_.at(slot, w, e)];
    }
  }
  for (std::size_t k = 0; k < groups_.kind_count(); ++k) {
    for (std::size_t w = 0; w < W; ++w) {
      const double unsampled = static_cast<double>(groups_.group_count(k) - profile_seen_[k * W + w]);
      for (std::size_t e = 0; e < E; ++e) {
        profile_sums_[profile_index(k, w, e)].estimates += unsampled * empty_estimates_[e];
      }
    }
  }
  for (const auto [slot, w] : sampled_list_) {
    const std::size_t k = slot_kinds_[slot];
    for (std::size_t e = 0; e < E; ++e) {
      ProfileSums& sums = profile_sums_[profile_index(k, w, e)];
      const std::size_t i = estimator_layout_.at(slot, w, e);
      sums.distance += std::fabs(estimates_[i] / sums.estimates - truth_shares_[i]);
      sums.sampled_share += truth_shares_[i];
    }
  }
  for (std::size_t k = 0; k < groups_.kind_count(); ++k) {
    if (groups_.kind(k) == GroupKind::total) continue;
    const std::uint32_t first = groups_.first_slot(k), count = groups_.group_count(k);
    for (std::size_t w = 0; w < W; ++w) {
      for (std::size_t e = 0; e < E; ++e) {
        const ProfileSums& sums = profile_sums_[profile_index(k, w, e)];
        double distance = 1.0;
        if (sums.estimates > 0 && truth_share_sums_[profile_index(k, w, e)] > 0) {
          double unsampled = 0;
          if (empty_estimates_[e] == 0) {
            unsampled = truth_share_sums_[profile_index(k, w, e)] - sums.sampled_share;
          } else {
            for (std::uint32_t g = 0; g < count; ++g) {
              if (sampled_[(first + g) * W + w] != 0) continue;
              const std::size_t i = estimator_layout_.at(first + g, w, e);
              unsampled += std::fabs(empty_estimates_[e] / sums.estimates - truth_shares_[i]);
            }
          }
          distance = (sums.distance + unsampled) / 2;
        }
        ProfileAccumulator& profile = result.profiles[profile_index(k, w, e)];
        profile.distance.add(distance);
        profile.groups_seen.add(static_cast<double>(profile_seen_[k * W + w]));
      }
    }
  }
}

// The sampled groups back to no registers and the empty estimate.
void SchemeEvaluator::clear_sampled() {
  const std::size_t W = windows_.size(), R = replay_.layout().width();
  for (const auto [slot, w] : sampled_list_) {
    std::fill_n(&registers_[register_layout_.at(slot, w, 0)], R, 0.0);
    std::copy(empty_estimates_.begin(), empty_estimates_.end(), &estimates_[estimator_layout_.at(slot, w, 0)]);
    sampled_[slot * W + w] = 0;
  }
  sampled_list_.clear();
}

// The block's errors and interval widths into its accumulators, the replications
// without a sample in closed form.
void SchemeEvaluator::fold_block(std::uint64_t count, BlockResult& result) {
  for (std::size_t i = 0; i < result.accumulators.size(); ++i) {
    // Given a sample, the |relative error| takes the listed values alone.
    const Moments given_a_sample = errors_.listed(2 * i + 1);
    result.accumulators[i] = {errors_.take(2 * i, count), errors_.take(2 * i + 1, count), given_a_sample};
  }
  for (std::uint32_t slot = 0; slot < groups_.slot_count(); ++slot) {
    for (std::size_t w = 0; w < windows_.size(); ++w) {
      for (std::size_t j = 0; j < empty_intervals_.size(); ++j) {
        const std::size_t i = interval_layout_.at(slot, w, j);
        const std::uint64_t empty = widths_.defaulted(i, count);
        if (empty > 0) {
          const double truth = truth_values_[estimator_layout_.at(slot, w, scheme_.intervals()[j].estimator)];
          result.intervals[i].count_outcome(empty_intervals_[j], truth, empty);
        }
        result.intervals[i].width = widths_.take(i, count);
      }
    }
  }
}

}  // namespace allocsim
