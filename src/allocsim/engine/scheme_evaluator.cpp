#include "allocsim/engine/scheme_evaluator.h"

#include <algorithm>

namespace allocsim {

void BlockResult::merge(const BlockResult& later) {
  if (accumulators.empty()) {
    *this = later;
    return;
  }
  for (std::size_t i = 0; i < accumulators.size(); ++i) accumulators[i].merge(later.accumulators[i]);
  for (std::size_t i = 0; i < intervals.size(); ++i) intervals[i].merge(later.intervals[i]);
  total_estimates.insert(total_estimates.end(), later.total_estimates.begin(),
                         later.total_estimates.end());
}

namespace {

std::unique_ptr<SchemeRun> start_run(const Scheme& scheme, const Trace& trace, const ThreadIndex* index) {
  if (index != nullptr) {
    if (auto run = scheme.start_skip_ahead(trace, *index)) return run;
  }
  return scheme.start(trace);
}

}  // namespace

SchemeEvaluator::SchemeEvaluator(const Trace& trace, const ThreadIndex* index, const GroupIndex& groups,
                                 const Truth& truth, const Scheme& scheme,
                                 const std::vector<Window>& windows, double interval_level,
                                 bool keep_total_estimates)
    : trace_(trace),
      groups_(groups),
      scheme_(scheme),
      windows_(windows),
      interval_level_(interval_level),
      keep_total_estimates_(false),
      estimator_count_(scheme.estimators().size()),
      register_count_(0),
      run_(start_run(scheme, trace, index)) {
  for (const EstimatorSpec& spec : scheme.estimators()) {
    first_register_.push_back(register_count_);
    register_count_ += spec.registers;
  }
  const std::size_t slots = groups.slot_count();
  for (std::size_t k = 0; k < groups.kind_count(); ++k) {
    if (groups.kind(k) == GroupKind::total && keep_total_estimates) {
      keep_total_estimates_ = true;
      total_slot_ = groups.first_slot(k);
    }
  }
  estimates_.assign(slots * kWindowCount * estimator_count_, 0.0);
  registers_.assign(slots * kWindowCount * register_count_, 0.0);
  sampled_.assign(slots * kWindowCount, 0);
  truth_values_.assign(estimates_.size(), 0.0);
  for (std::uint32_t slot = 0; slot < slots; ++slot) {
    for (Window w : windows_) {
      for (std::size_t e = 0; e < estimator_count_; ++e) {
        truth_values_[accumulator_index(estimator_count_, slot, w, e)] =
            Truth::value(truth.at(slot, w), scheme.estimators()[e].quantity);
      }
    }
  }
}

BlockResult SchemeEvaluator::run_block(const StreamKey& first, std::uint64_t count) {
  BlockResult result;
  result.accumulators.resize(estimates_.size());
  result.intervals.resize(static_cast<std::size_t>(groups_.slot_count()) * kWindowCount *
                          scheme_.intervals().size());
  if (keep_total_estimates_) result.total_estimates.reserve(count * estimator_count_);
  StreamKey key = first;
  for (std::uint64_t r = 0; r < count; ++r, ++key.replication) replicate(key, result);
  return result;
}

void SchemeEvaluator::replicate(const StreamKey& key, BlockResult& result) {
  observations_.clear();
  run_->replay(key, observations_);
  const std::size_t E = estimator_count_;
  const std::size_t W = register_count_;
  contributions_.resize(observations_.size() * W);
  scheme_.weigh(trace_, observations_, contributions_);

  std::fill(registers_.begin(), registers_.end(), 0.0);
  std::fill(sampled_.begin(), sampled_.end(), 0);
  const bool track_live =
      std::find(windows_.begin(), windows_.end(), Window::live_at_end) != windows_.end();
  for (std::size_t o = 0; o < observations_.size(); ++o) {
    const std::size_t event = observations_[o].event;
    const double* contribution = &contributions_[o * W];
    const bool live = track_live && trace_.live_at_end(event);
    for (std::size_t k = 0; k < groups_.kind_count(); ++k) {
      const std::uint32_t slot = groups_.slot_of(k, event);
      for (std::size_t w = 0; w < (live ? 2u : 1u); ++w) {
        double* group_registers = &registers_[(slot * kWindowCount + w) * W];
        for (std::size_t j = 0; j < W; ++j) group_registers[j] += contribution[j];
        sampled_[slot * kWindowCount + w] = 1;
      }
    }
  }
  for (std::uint32_t slot = 0; slot < groups_.slot_count(); ++slot) {
    for (Window w : windows_) {
      const double* group_registers = &registers_[(slot * kWindowCount + static_cast<std::size_t>(w)) * W];
      double* estimate = &estimates_[accumulator_index(E, slot, w, 0)];
      for (std::size_t e = 0; e < E; ++e) {
        const std::size_t n = scheme_.estimators()[e].registers;
        estimate[e] = n == 1 ? group_registers[first_register_[e]]
                             : scheme_.finalize(e, {group_registers + first_register_[e], n});
      }
      const auto& interval_specs = scheme_.intervals();
      for (std::size_t j = 0; j < interval_specs.size(); ++j) {
        const std::size_t e = interval_specs[j].estimator;
        const double truth = truth_values_[accumulator_index(E, slot, w, e)];
        if (!(truth > 0)) continue;
        const std::span<const double> registers(group_registers + first_register_[e],
                                                scheme_.estimators()[e].registers);
        result.intervals[accumulator_index(interval_specs.size(), slot, w, j)].add(
            scheme_.interval(j, registers, interval_level_), truth);
      }
    }
  }

  for (std::uint32_t slot = 0; slot < groups_.slot_count(); ++slot) {
    for (Window w : windows_) {
      const bool any = sampled_[slot * kWindowCount + static_cast<std::size_t>(w)] != 0;
      const std::size_t base = accumulator_index(E, slot, w, 0);
      for (std::size_t e = 0; e < E; ++e) {
        result.accumulators[base + e].add(estimates_[base + e], truth_values_[base + e], any);
      }
    }
  }
  if (keep_total_estimates_) {
    const std::size_t base = accumulator_index(E, total_slot_, Window::allocated, 0);
    result.total_estimates.insert(result.total_estimates.end(), estimates_.begin() + base,
                                  estimates_.begin() + base + E);
  }
}

}  // namespace allocsim
