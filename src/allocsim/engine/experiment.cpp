#include "allocsim/engine/experiment.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>

#include "allocsim/engine/scheme_evaluator.h"
#include "allocsim/engine/theory_sums.h"
#include "allocsim/stats/truth.h"

namespace allocsim {
namespace {

std::string estimator_row_name(const EstimatorSpec& spec, const Window& window) {
  return window.estimator_prefix() + spec.name;
}

bool reported(const Scenario& scenario, const std::string& name) {
  return scenario.estimators.empty() ||
         std::find(scenario.estimators.begin(), scenario.estimators.end(), name) !=
             scenario.estimators.end();
}

// The seed synthetic generators get when their spec does not fix one: derived
// from the scenario seed, independent of the sampling streams.
std::uint64_t trace_seed(std::uint64_t scenario_seed) {
  return stream_id(scenario_seed, 0x74726163ULL /* "trac" */);
}

}  // namespace

ScenarioResult run_scenario(const Scenario& scenario, const RunOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const unsigned threads = std::max(1u, options.threads);
  ScenarioResult result;
  result.threads = threads;

  // Points with the same resolved trace share one trace; it is dropped after its
  // last point.
  std::map<std::string, std::size_t> uses_left;
  for (const auto& point : scenario.points) ++uses_left[point.trace_key];
  std::map<std::string, std::shared_ptr<const Trace>> traces;

  const std::uint64_t R = scenario.replications;
  std::uint64_t total_work = 0;
  for (const auto& point : scenario.points) total_work += point.schemes.size() * R;
  std::uint64_t work_before_point = 0;  // replications of the points already run

  for (std::size_t p = 0; p < scenario.points.size(); ++p) {
    const SweepPoint& point = scenario.points[p];
    if (options.cancelled && options.cancelled()) throw RunCancelled();
    auto& cached = traces[point.trace_key];
    if (!cached) cached = std::make_shared<const Trace>(load_trace(point.trace, trace_seed(scenario.seed)));
    const std::shared_ptr<const Trace> trace = cached;
    if (--uses_left[point.trace_key] == 0) traces.erase(point.trace_key);
    result.traces.push_back(trace_totals(*trace));

    const GroupIndex groups(*trace, scenario.groups);
    const std::vector<Window> windows = resolve_windows(scenario.windows, *trace);
    std::unique_ptr<const ThreadIndex> thread_index;
    if (scenario.replay == ReplayMode::skip_ahead) thread_index = std::make_unique<const ThreadIndex>(*trace);
    const std::size_t scheme_count = point.schemes.size();
    std::vector<Truth> truths;  // per scheme: allocated bytes follow its allocator model
    truths.reserve(scheme_count);
    for (const auto& instance : point.schemes) {
      truths.emplace_back(*trace, groups, windows,
                          [&](std::size_t i) { return instance.scheme->allocated_size(*trace, i); });
    }
    // Scheme s replays the stream (seed, stream_id(p, s)), replications [0, R).
    std::vector<ReplicationRange> jobs;
    for (std::size_t s = 0; s < scheme_count; ++s) jobs.push_back({{scenario.seed, stream_id(p, s), 0}, R});
    ReplicationOptions replication_options{threads, {}, options.cancelled};
    if (options.progress) {
      replication_options.progress = [&](std::uint64_t done) {
        std::fprintf(stderr, "\r%s: point %zu/%zu, %3.0f%% ", scenario.name.c_str(), p + 1,
                     scenario.points.size(),
                     100.0 * static_cast<double>(work_before_point + done) / static_cast<double>(total_work));
        std::fflush(stderr);
      };
    }
    const std::vector<BlockResult> merged = run_replications<BlockResult>(
        jobs,
        [&](std::size_t s) {
          return std::make_unique<SchemeEvaluator>(*trace, thread_index.get(), groups, truths[s],
                                                   *point.schemes[s].scheme, windows, scenario.interval_level,
                                                   scenario.outputs.estimates);
        },
        replication_options);
    work_before_point += scheme_count * R;

    for (std::size_t s = 0; s < scheme_count; ++s) {
      const Scheme& scheme = *point.schemes[s].scheme;
      const Truth& truth = truths[s];
      const BlockResult& total = merged[s];
      const auto& specs = scheme.estimators();
      const std::vector<AllocationTheory> theory_sums = sum_allocation_theory(*trace, groups, windows, scheme);
      const SlotLayout estimator_layout{windows.size(), specs.size()};
      const SlotLayout interval_layout{windows.size(), scheme.intervals().size()};
      for (std::size_t w = 0; w < windows.size(); ++w) {
        for (std::size_t e = 0; e < specs.size(); ++e) {
          const std::string name = estimator_row_name(specs[e], windows[w]);
          if (!reported(scenario, name)) continue;
          const EstimatorTheory theory = scheme.theory(e);
          for (std::size_t k = 0; k < groups.kind_count(); ++k) {
            for (std::uint32_t g = 0; g < groups.group_count(k); ++g) {
              const std::uint32_t slot = groups.first_slot(k) + g;
              const GroupTotals& totals = truth.at(slot, w);
              const double value = Truth::value(totals, specs[e].quantity);
              if (!(value > 0)) continue;  // nothing to estimate in this group
              const std::size_t index = estimator_layout.at(slot, w, e);
              result.rows.push_back({p, point.schemes[s].label, name, groups.kind(k), groups.label(k, g),
                                     compute_metrics(total.accumulators[index], value,
                                                     theory.of_group(totals, theory_sums[index]))});
            }
          }
        }
      }
      const auto& interval_specs = scheme.intervals();
      for (std::size_t w = 0; w < windows.size(); ++w) {
        for (std::size_t j = 0; j < interval_specs.size(); ++j) {
          const std::size_t e = interval_specs[j].estimator;
          const std::string name = estimator_row_name(specs[e], windows[w]);
          if (!reported(scenario, name)) continue;
          for (std::size_t k = 0; k < groups.kind_count(); ++k) {
            for (std::uint32_t g = 0; g < groups.group_count(k); ++g) {
              const std::uint32_t slot = groups.first_slot(k) + g;
              const double value = Truth::value(truth.at(slot, w), specs[e].quantity);
              if (!(value > 0)) continue;
              const auto& acc = total.intervals[interval_layout.at(slot, w, j)];
              result.interval_rows.push_back({p, point.schemes[s].label, name, interval_specs[j].name,
                                              groups.kind(k), groups.label(k, g),
                                              compute_interval_metrics(acc, value, scenario.interval_level)});
            }
          }
        }
      }
      for (std::size_t k = 0; k < groups.kind_count(); ++k) {
        if (groups.kind(k) == GroupKind::total) continue;
        for (std::size_t w = 0; w < windows.size(); ++w) {
          for (std::size_t e = 0; e < specs.size(); ++e) {
            const std::string name = estimator_row_name(specs[e], windows[w]);
            if (!reported(scenario, name)) continue;
            std::uint32_t holding = 0;
            for (std::uint32_t g = 0; g < groups.group_count(k); ++g) {
              holding += Truth::value(truth.at(groups.first_slot(k) + g, w), specs[e].quantity) > 0 ? 1 : 0;
            }
            const ProfileAccumulator& acc =
                total.profiles[SchemeEvaluator::profile_index(k, w, e, windows.size(), specs.size())];
            result.profile_rows.push_back({p, point.schemes[s].label, name, groups.kind(k), holding,
                                           acc.distance.count(), acc.distance.mean(),
                                           acc.distance.standard_error(), acc.groups_seen.mean()});
          }
        }
      }
      if (total.total_estimates.empty()) continue;
      const auto total_kind = std::find(scenario.groups.begin(), scenario.groups.end(), GroupKind::total);
      const std::uint32_t total_slot = groups.first_slot(total_kind - scenario.groups.begin());
      const std::size_t allocated = std::find(windows.begin(), windows.end(), Window{}) - windows.begin();
      for (std::size_t e = 0; e < specs.size(); ++e) {
        ReplicationEstimates series{p, point.schemes[s].label, specs[e].name,
                                    Truth::value(truth.at(total_slot, allocated), specs[e].quantity),
                                    {}};
        series.estimates.reserve(R);
        for (std::uint64_t r = 0; r < R; ++r) series.estimates.push_back(total.total_estimates[r * specs.size() + e]);
        result.estimates.push_back(std::move(series));
      }
    }
  }
  if (options.progress) std::fprintf(stderr, "\r%*s\r", 60, "");
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace allocsim
