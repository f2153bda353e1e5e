#include "allocsim/report/verdict.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <variant>

#include "allocsim/format/csv.h"
#include "allocsim/report/verdict_format.h"
#include "allocsim/stats/result_tables.h"
#include "allocsim/util/byte_units.h"
#include "allocsim/util/json_text.h"

namespace allocsim {
namespace {

bool same_series(const MetricRow& row, std::size_t point, const std::string& scheme, const std::string& estimator) {
  return row.point == point && row.scheme == scheme && row.estimator == estimator;
}

const MetricRow* find_total(const ScenarioResult& result, std::size_t point, const std::string& scheme,
                            const std::string& estimator) {
  for (const MetricRow& row : result.rows) {
    if (same_series(row, point, scheme, estimator) && row.group_kind == GroupKind::total) return &row;
  }
  return nullptr;
}

const IntervalRow* find_interval(const ScenarioResult& result, const MetricRow& row) {
  for (const IntervalRow& interval : result.interval_rows) {
    if (interval.point == row.point && interval.scheme == row.scheme && interval.estimator == row.estimator &&
        interval.group_kind == row.group_kind && interval.group == row.group) {
      return &interval;
    }
  }
  return nullptr;
}

const ProfileRow* find_profile(const ScenarioResult& result, std::size_t point, const std::string& scheme,
                               const std::string& estimator) {
  for (const ProfileRow& row : result.profile_rows) {
    if (row.point == point && row.scheme == scheme && row.estimator == estimator &&
        row.group_kind == GroupKind::stack) {
      return &row;
    }
  }
  return nullptr;
}

void add_stacks(const ScenarioResult& result, std::size_t top, SchemeVerdict& entry) {
  std::vector<const MetricRow*> stacks;
  for (const MetricRow& row : result.rows) {
    if (same_series(row, entry.point, entry.scheme, entry.estimator) && row.group_kind == GroupKind::stack &&
        row.metrics.truth > 0) {
      stacks.push_back(&row);
    }
  }
  entry.stacks = stacks.size();
  double missed = 0;
  for (const MetricRow* row : stacks) {
    if (row->metrics.p_any_sample < kProbablyMissed) {
      ++entry.stacks_probably_missed;
      missed += row->metrics.truth;
    }
  }
  entry.truth_probably_missed = missed / entry.total.row->metrics.truth;
  // Largest first; equal sizes keep the order of the results.
  std::stable_sort(stacks.begin(), stacks.end(),
                   [](const MetricRow* a, const MetricRow* b) { return a->metrics.truth > b->metrics.truth; });
  stacks.resize(std::min(stacks.size(), top));
  for (const MetricRow* row : stacks) entry.top_stacks.push_back({row, find_interval(result, *row)});
}

// The size buckets' rows in the order of the results (ascending sizes).
void add_size_buckets(const ScenarioResult& result, SchemeVerdict& entry) {
  for (const MetricRow& row : result.rows) {
    if (same_series(row, entry.point, entry.scheme, entry.estimator) && row.group_kind == GroupKind::size_bucket) {
      entry.size_buckets.push_back({&row, find_interval(result, row)});
    }
  }
}

}  // namespace

Verdict make_verdict(const Scenario& scenario, const ScenarioResult& result, std::size_t top) {
  Verdict verdict;
  verdict.scenario = scenario.name;
  verdict.replications = scenario.replications;
  for (std::size_t point = 0; point < scenario.points.size(); ++point) {
    for (const SchemeInstance& instance : scenario.points[point].schemes) {
      for (const Window& window : scenario.windows) {
        // The scheme's first estimator that the results hold, in this window.
        for (const EstimatorSpec& spec : instance.scheme->estimators()) {
          const std::string estimator = window.estimator_prefix() + spec.name;
          const MetricRow* total = find_total(result, point, instance.label, estimator);
          if (total == nullptr) continue;
          SchemeVerdict entry;
          entry.point = point;
          entry.scheme = instance.label;
          entry.estimator = estimator;
          entry.quantity = spec.quantity;
          entry.window = window.name();
          entry.total = {total, find_interval(result, *total)};
          add_stacks(result, top, entry);
          entry.profile = find_profile(result, point, instance.label, estimator);
          add_size_buckets(result, entry);
          verdict.entries.push_back(std::move(entry));
          break;
        }
      }
    }
  }
  return verdict;
}

namespace {

std::string percent(double fraction) { return verdict_percent(fraction); }
std::string point_text(const Scenario& scenario, std::size_t point) { return verdict_point_text(scenario, point); }

std::string shortened(const std::string& label, std::size_t width) {
  if (label.size() <= width) return label;
  return label.substr(0, width - 3) + "...";
}

std::string coverage_text(const IntervalRow* interval) {
  if (interval == nullptr) return "-";
  return percent(interval->metrics.coverage);
}

void append(std::string& out, const char* format, auto... values) {
  char line[512];
  std::snprintf(line, sizeof line, format, values...);
  out += line;
}

}  // namespace

std::string verdict_text(const Scenario& scenario, const Verdict& verdict) {
  std::string out;
  append(out, "== %s: %llu simulated profiles per scheme; error = |estimate - truth| / truth, averaged\n",
         verdict.scenario.c_str(), static_cast<unsigned long long>(verdict.replications));
  for (const SchemeVerdict& entry : verdict.entries) {
    const Metrics& total = entry.total.row->metrics;
    append(out, "%s%s, %s (estimator %s)\n", entry.scheme.c_str(), point_text(scenario, entry.point).c_str(),
           entry.window.c_str(), entry.estimator.c_str());
    append(out, "  truth          %s\n", verdict_truth_text(entry.quantity).c_str());
    append(out, "  whole heap     %s; bias %s ± %s (1 SE); typical error %s", bytes_approx(total.truth).c_str(),
           percent(total.rel_bias).c_str(), percent(total.se_bias / total.truth).c_str(), percent(total.mape).c_str());
    if (entry.total.interval != nullptr) {
      append(out, "; %s %s interval covers %s", percent(entry.total.interval->metrics.level).c_str(),
             entry.total.interval->interval.c_str(), percent(entry.total.interval->metrics.coverage).c_str());
    }
    out += "\n";
    if (entry.profile != nullptr) {
      append(out, "  profile        %s ± %s from the truth (total variation over %u stacks: 0 exact, 100%% disjoint)\n",
             percent(entry.profile->mean_distance).c_str(), percent(entry.profile->se_distance).c_str(),
             entry.profile->groups);
    }
    if (!entry.size_buckets.empty()) {
      append(out, "  %-15s %10s %14s %8s %9s   %s\n", "by size bucket", "true", "typical error", "P(seen)", "covered",
             "requested size (bytes)");
      for (const GroupVerdict& bucket : entry.size_buckets) {
        const Metrics& m = bucket.row->metrics;
        append(out, "  %-15s %10s %14s %8s %9s   %s\n", "", bytes_approx(m.truth).c_str(), percent(m.mape).c_str(),
               percent(m.p_any_sample).c_str(), coverage_text(bucket.interval).c_str(), bucket.row->group.c_str());
      }
    }
    if (entry.top_stacks.empty()) continue;
    append(out, "  %-15s %10s %14s %8s %9s   %s\n", "largest stacks", "true", "typical error", "P(seen)", "covered",
           "stack");
    for (const GroupVerdict& stack : entry.top_stacks) {
      const Metrics& m = stack.row->metrics;
      append(out, "  %-15s %10s %14s %8s %9s   %s\n", "", bytes_approx(m.truth).c_str(), percent(m.mape).c_str(),
             percent(m.p_any_sample).c_str(), coverage_text(stack.interval).c_str(),
             shortened(stack.row->group, 100).c_str());
    }
    append(out,
           "  probably missed: %zu of %zu stacks (%s of the bytes), each sampled in fewer than half of the profiles\n",
           entry.stacks_probably_missed, entry.stacks, percent(entry.truth_probably_missed).c_str());
  }
  return out;
}

namespace {

nlohmann::ordered_json cell_json(const Cell& cell) {
  if (const auto* text = std::get_if<std::string_view>(&cell)) return std::string(*text);
  if (const auto* count = std::get_if<std::uint64_t>(&cell)) return *count;
  if (const auto* number = std::get_if<double>(&cell)) return *number;
  const std::optional<double>& maybe = std::get<std::optional<double>>(cell);
  return maybe ? nlohmann::ordered_json(*maybe) : nlohmann::ordered_json();
}

// The named columns of a row, by their names in the row's table.
template <class Row>
nlohmann::ordered_json columns_json(ResultTable<Row> table, const Row& row,
                                    std::initializer_list<std::string_view> names) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (std::string_view name : names) out[std::string(name)] = cell_json(column_named(table, name).get(row));
  return out;
}

nlohmann::ordered_json metrics_json(const MetricRow& row, const IntervalRow* interval) {
  nlohmann::ordered_json out = columns_json(
      metric_table(), row, {"group", "truth", "bias", "se_bias", "rel_bias", "mape", "se_mape", "p_any_sample"});
  if (interval != nullptr) {
    out["interval"] = columns_json(interval_table(), *interval, {"interval", "level", "coverage", "se_coverage"});
  }
  return out;
}

}  // namespace

nlohmann::ordered_json verdict_json(const Scenario& scenario, const Verdict& verdict) {
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const SchemeVerdict& entry : verdict.entries) {
    nlohmann::ordered_json sweep = nlohmann::ordered_json::object();
    for (std::size_t v = 0; v < scenario.sweep.size(); ++v) {
      sweep[scenario.sweep[v].name] = nlohmann::ordered_json::parse(json_text(scenario.points[entry.point].values[v]));
    }
    nlohmann::ordered_json item = {{"sweep", sweep},
                                   {"scheme", entry.scheme},
                                   {"estimator", entry.estimator},
                                   {"window", entry.window},
                                   {"truth", to_string(entry.quantity)},
                                   {"whole_heap", metrics_json(*entry.total.row, entry.total.interval)}};
    if (entry.profile != nullptr) {
      item["profile"] =
          columns_json(profile_table(), *entry.profile, {"groups", "mean_distance", "se_distance", "mean_groups_seen"});
    }
    nlohmann::ordered_json stacks = nlohmann::ordered_json::array();
    for (const GroupVerdict& stack : entry.top_stacks) stacks.push_back(metrics_json(*stack.row, stack.interval));
    item["top_stacks"] = stacks;
    item["stacks"] = entry.stacks;
    item["stacks_probably_missed"] = entry.stacks_probably_missed;
    item["truth_share_probably_missed"] = entry.truth_probably_missed;
    if (!entry.size_buckets.empty()) {
      nlohmann::ordered_json buckets = nlohmann::ordered_json::array();
      for (const GroupVerdict& bucket : entry.size_buckets) {
        buckets.push_back(metrics_json(*bucket.row, bucket.interval));
      }
      item["size_buckets"] = buckets;
    }
    entries.push_back(std::move(item));
  }
  return {{"scenario", verdict.scenario},
          {"replications", verdict.replications},
          {"probably_missed_below", kProbablyMissed},
          {"entries", entries}};
}

}  // namespace allocsim
