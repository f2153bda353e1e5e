// Rows from a scheme's merged accumulators: metric, interval and profile rows and
// the whole-trace estimates.
#include "allocsim/engine/scheme_rows.h"

#include <algorithm>
#include <string>

namespace allocsim {
namespace {

const SchemeInstance& instance_of(const SchemeOutcome& outcome) {
  return outcome.scenario.points[outcome.point].schemes[outcome.scheme];
}

// The estimator's name in the results: its window's prefix, then its own name.
std::string estimator_row_name(const EstimatorSpec& spec, const Window& window) {
  return window.estimator_prefix() + spec.name;
}

// Whether the scenario reports the estimator (it reports all when it names none).
bool reported(const Scenario& scenario, const std::string& name) {
  return scenario.estimators.empty() ||
         std::find(scenario.estimators.begin(), scenario.estimators.end(), name) != scenario.estimators.end();
}

}  // namespace

void append_metric_rows(const SchemeOutcome& outcome, std::vector<MetricRow>& rows) {
  const SchemeInstance& instance = instance_of(outcome);
  const Scheme& scheme = *instance.scheme;
  const GroupIndex& groups = outcome.groups;
  const auto& specs = scheme.estimators();
  const SlotLayout layout{outcome.windows.size(), specs.size()};
  for (std::size_t w = 0; w < outcome.windows.size(); ++w) {
    for (std::size_t e = 0; e < specs.size(); ++e) {
      const std::string name = estimator_row_name(specs[e], outcome.windows[w]);
      if (!reported(outcome.scenario, name)) continue;
      const EstimatorTheory theory = scheme.theory(e);
      for (std::size_t k = 0; k < groups.kind_count(); ++k) {
        for (std::uint32_t g = 0; g < groups.group_count(k); ++g) {
          const std::uint32_t slot = groups.first_slot(k) + g;
          const GroupTotals& totals = outcome.truth.at(slot, w);
          const double value = Truth::value(totals, specs[e].quantity);
          if (!(value > 0)) continue;  // nothing to estimate in this group
          const std::size_t index = layout.at(slot, w, e);
          rows.push_back({outcome.point, instance.label, name, groups.kind(k), groups.label(k, g),
                          compute_metrics(outcome.merged.accumulators[index], value,
                                          theory.of_group(totals, outcome.theory_sums[index]))});
        }
      }
    }
  }
}

void append_interval_rows(const SchemeOutcome& outcome, std::vector<IntervalRow>& rows) {
  const SchemeInstance& instance = instance_of(outcome);
  const GroupIndex& groups = outcome.groups;
  const auto& specs = instance.scheme->estimators();
  const auto& intervals = instance.scheme->intervals();
  const SlotLayout layout{outcome.windows.size(), intervals.size()};
  for (std::size_t w = 0; w < outcome.windows.size(); ++w) {
    for (std::size_t j = 0; j < intervals.size(); ++j) {
      const std::size_t e = intervals[j].estimator;
      const std::string name = estimator_row_name(specs[e], outcome.windows[w]);
      if (!reported(outcome.scenario, name)) continue;
      for (std::size_t k = 0; k < groups.kind_count(); ++k) {
        for (std::uint32_t g = 0; g < groups.group_count(k); ++g) {
          const std::uint32_t slot = groups.first_slot(k) + g;
          const double value = Truth::value(outcome.truth.at(slot, w), specs[e].quantity);
          if (!(value > 0)) continue;
          const IntervalAccumulator& acc = outcome.merged.intervals[layout.at(slot, w, j)];
          rows.push_back({outcome.point, instance.label, name, intervals[j].name, groups.kind(k), groups.label(k, g),
                          compute_interval_metrics(acc, value, outcome.scenario.interval_level)});
        }
      }
    }
  }
}

void append_profile_rows(const SchemeOutcome& outcome, std::vector<ProfileRow>& rows) {
  const SchemeInstance& instance = instance_of(outcome);
  const GroupIndex& groups = outcome.groups;
  const auto& specs = instance.scheme->estimators();
  const std::size_t windows = outcome.windows.size();
  for (std::size_t k = 0; k < groups.kind_count(); ++k) {
    if (groups.kind(k) == GroupKind::total) continue;
    for (std::size_t w = 0; w < windows; ++w) {
      for (std::size_t e = 0; e < specs.size(); ++e) {
        const std::string name = estimator_row_name(specs[e], outcome.windows[w]);
        if (!reported(outcome.scenario, name)) continue;
        std::uint32_t holding = 0;
        for (std::uint32_t g = 0; g < groups.group_count(k); ++g) {
          holding += Truth::value(outcome.truth.at(groups.first_slot(k) + g, w), specs[e].quantity) > 0 ? 1 : 0;
        }
        const ProfileAccumulator& acc =
            outcome.merged.profiles[SchemeEvaluator::profile_index(k, w, e, windows, specs.size())];
        rows.push_back({outcome.point, instance.label, name, groups.kind(k), holding, acc.distance.count(),
                        acc.distance.mean(), acc.distance.standard_error(), acc.groups_seen.mean()});
      }
    }
  }
}

void append_estimates(const SchemeOutcome& outcome, std::vector<ReplicationEstimates>& series) {
  const std::vector<double>& estimates = outcome.merged.total_estimates;
  if (estimates.empty()) return;
  const Scenario& scenario = outcome.scenario;
  const SchemeInstance& instance = instance_of(outcome);
  const auto& specs = instance.scheme->estimators();
  // The whole trace, over the allocated window.
  const auto total_kind = std::find(scenario.groups.begin(), scenario.groups.end(), GroupKind::total);
  const std::uint32_t total_slot = outcome.groups.first_slot(total_kind - scenario.groups.begin());
  const std::size_t allocated =
      std::find(outcome.windows.begin(), outcome.windows.end(), Window{}) - outcome.windows.begin();
  for (std::size_t e = 0; e < specs.size(); ++e) {
    ReplicationEstimates one{outcome.point,
                             instance.label,
                             specs[e].name,
                             Truth::value(outcome.truth.at(total_slot, allocated), specs[e].quantity),
                             {}};
    one.estimates.reserve(scenario.replications);
    for (std::uint64_t r = 0; r < scenario.replications; ++r) one.estimates.push_back(estimates[r * specs.size() + e]);
    series.push_back(std::move(one));
  }
}

void append_scheme_rows(const SchemeOutcome& outcome, ScenarioResult& result) {
  append_metric_rows(outcome, result.rows);
  append_interval_rows(outcome, result.interval_rows);
  append_profile_rows(outcome, result.profile_rows);
  append_estimates(outcome, result.estimates);
}

}  // namespace allocsim
