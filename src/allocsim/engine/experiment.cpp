#include "allocsim/engine/experiment.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <set>

#include "allocsim/engine/scheme_evaluator.h"
#include "allocsim/engine/scheme_rows.h"
#include "allocsim/engine/theory_sums.h"
#include "allocsim/engine/work_units.h"
#include "allocsim/random/stream_purpose.h"
#include "allocsim/stats/truth.h"
#include "allocsim/util/error.h"
#include "allocsim/util/parallel.h"

namespace allocsim {

std::uint64_t trace_seed(std::uint64_t scenario_seed) {
  return stream_id(scenario_seed, stream_of(StreamPurpose::synthetic_trace_seed));
}

namespace {

// What the points sharing one trace share: the trace, its groups, its windows
// and its skip-ahead index.
struct TraceSetup {
  std::shared_ptr<const Trace> trace;
  std::unique_ptr<const GroupIndex> groups;
  std::vector<Window> windows;
  std::unique_ptr<const ThreadIndex> thread_index;
};

// One sweep point made ready: per scheme, its truth, its theory sums and the scheme
// prepared for the trace (what its workers' runs share).
struct PointSetup {
  std::shared_ptr<const TraceSetup> shared;
  std::vector<std::unique_ptr<const Truth>> truths;
  std::vector<std::vector<AllocationTheory>> theory_sums;
  std::vector<std::shared_ptr<const PreparedScheme>> prepared;
};

// Consecutive points replicated together: enough units to keep every worker
// busy, and at most `threads` traces new to the wave (a wave holds its traces in
// memory). Waves decide only what runs together, never a result.
std::vector<std::vector<std::size_t>> make_waves(const Scenario& scenario, const std::vector<std::size_t>& points,
                                                 const std::vector<std::uint64_t>& units_of_point, unsigned threads) {
  std::vector<std::vector<std::size_t>> waves;
  std::uint64_t units = 0;
  std::set<std::string> traces;
  for (std::size_t p : points) {
    const std::string& key = scenario.points[p].trace_key;
    const bool new_trace = traces.count(key) == 0;
    if (waves.empty() || units >= 8ULL * threads || (new_trace && traces.size() >= threads)) {
      waves.emplace_back();
      units = 0;
      traces.clear();
    }
    waves.back().push_back(p);
    units += units_of_point[p];
    traces.insert(key);
  }
  return waves;
}

// Sets up points in waves and hands each wave to a consumer; a trace is dropped
// after the last point that uses it.
class PointSetups {
 public:
  PointSetups(const Scenario& scenario, const std::vector<std::size_t>& points, unsigned threads)
      : scenario_(scenario), threads_(threads), setups_(scenario.points.size()) {
    for (std::size_t p : points) ++uses_left_[scenario.points[p].trace_key];
  }

  // Sets up `wave` on the worker threads: its new traces first, then their group
  // indexes, then every (point, scheme)'s truth and theory sums beside the new
  // traces' thread indexes, then every (point, scheme) prepared on its trace.
  void prepare(const std::vector<std::size_t>& wave) {
    std::vector<std::string> new_keys;
    std::vector<std::size_t> first_point;
    for (std::size_t p : wave) {
      const std::string& key = scenario_.points[p].trace_key;
      if (traces_.count(key) == 0 && std::find(new_keys.begin(), new_keys.end(), key) == new_keys.end()) {
        new_keys.push_back(key);
        first_point.push_back(p);
      }
    }
    // Traces first (the threads shared among them: a lone trace draws its aspects
    // on all), then each one's groups and windows, which truths and theory read.
    std::vector<std::shared_ptr<TraceSetup>> loaded(new_keys.size());
    const auto threads_per_trace =
        static_cast<unsigned>(std::max<std::size_t>(1, threads_ / std::max<std::size_t>(1, new_keys.size())));
    parallel_for(new_keys.size(), threads_,
                 [&](std::size_t t, unsigned) {
                   loaded[t] = std::make_shared<TraceSetup>();
                   try {
                     loaded[t]->trace = std::make_shared<const Trace>(load_trace(
                         scenario_.points[first_point[t]].trace, trace_seed(scenario_.seed), threads_per_trace));
                   } catch (const InputError& e) {  // a synthetic trace whose drawn sizes add up past the limit
                     throw InputError(scenario_.source + ": " + e.what());
                   }
                 },
                 {});
    parallel_for(new_keys.size(), threads_,
                 [&](std::size_t t, unsigned) {
                   TraceSetup& setup = *loaded[t];
                   setup.groups = std::make_unique<const GroupIndex>(*setup.trace, scenario_.groups);
                   setup.windows = resolve_windows(scenario_.windows, *setup.trace);
                 },
                 {});
    for (std::size_t t = 0; t < new_keys.size(); ++t) traces_[new_keys[t]] = loaded[t];

    std::vector<std::pair<std::size_t, std::size_t>> jobs;  // (point, scheme)
    for (std::size_t p : wave) {
      PointSetup& setup = setups_[p];
      setup.shared = traces_.at(scenario_.points[p].trace_key);
      const std::size_t schemes = scenario_.points[p].schemes.size();
      setup.truths.resize(schemes);
      setup.theory_sums.resize(schemes);
      setup.prepared.resize(schemes);
      for (std::size_t s = 0; s < schemes; ++s) jobs.emplace_back(p, s);
      if (--uses_left_[scenario_.points[p].trace_key] == 0) traces_.erase(scenario_.points[p].trace_key);
    }
    // Each (point, scheme)'s theory sums and truth, then each new trace's thread
    // index: the longest tasks first.
    const std::size_t thread_indexes = scenario_.replay == ReplayMode::skip_ahead ? loaded.size() : 0;
    parallel_for(2 * jobs.size() + thread_indexes, threads_,
                 [&](std::size_t task, unsigned) {
                   if (task >= 2 * jobs.size()) {
                     TraceSetup& setup = *loaded[task - 2 * jobs.size()];
                     setup.thread_index = std::make_unique<const ThreadIndex>(*setup.trace);
                     return;
                   }
                   const auto [p, s] = jobs[task % jobs.size()];
                   PointSetup& setup = setups_[p];
                   const TraceSetup& shared = *setup.shared;
                   const Scheme& scheme = *scenario_.points[p].schemes[s].scheme;
                   if (task < jobs.size()) {
                     setup.theory_sums[s] =
                         sum_allocation_theory(*shared.trace, *shared.groups, shared.windows, scheme);
                   } else {
                     setup.truths[s] = std::make_unique<const Truth>(
                         *shared.trace, *shared.groups, shared.windows,
                         [&](std::size_t i) { return scheme.allocated_size(*shared.trace, i); });
                   }
                 },
                 {});
    parallel_for(jobs.size(), threads_,
                 [&](std::size_t task, unsigned) {
                   const auto [p, s] = jobs[task];
                   PointSetup& setup = setups_[p];
                   const TraceSetup& shared = *setup.shared;
                   setup.prepared[s] =
                       scenario_.points[p].schemes[s].scheme->prepare(*shared.trace, shared.thread_index.get());
                 },
                 {});
  }

  const PointSetup& at(std::size_t p) const { return setups_[p]; }
  void release(const std::vector<std::size_t>& wave) {
    for (std::size_t p : wave) setups_[p] = {};
  }

 private:
  const Scenario& scenario_;
  unsigned threads_;
  std::vector<PointSetup> setups_;  // by point; filled for the current wave
  std::map<std::string, std::size_t> uses_left_;
  std::map<std::string, std::shared_ptr<TraceSetup>> traces_;
};

// Where the units of a wave's points are in the unit list, and their jobs:
// job (point p, scheme s) replays the stream (seed, stream_id(p, s)), [0, R).
struct WaveJobs {
  std::vector<ReplicationRange> ranges;
  std::vector<std::pair<std::size_t, std::size_t>> point_scheme;
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> job_of;
};

WaveJobs wave_jobs(const Scenario& scenario, const std::vector<std::size_t>& wave) {
  WaveJobs jobs;
  const std::uint64_t block = replications_per_unit(scenario);
  for (std::size_t p : wave) {
    for (std::size_t s = 0; s < scenario.points[p].schemes.size(); ++s) {
      jobs.job_of[{p, s}] = jobs.ranges.size();
      jobs.ranges.push_back({{scenario.seed, stream_id(p, s), 0}, scenario.replications, block});
      jobs.point_scheme.emplace_back(p, s);
    }
  }
  return jobs;
}

std::unique_ptr<SchemeEvaluator> make_evaluator(const Scenario& scenario, const PointSetups& setups, std::size_t p,
                                                std::size_t s) {
  const PointSetup& setup = setups.at(p);
  const TraceSetup& shared = *setup.shared;
  return std::make_unique<SchemeEvaluator>(*shared.trace, *setup.prepared[s], *shared.groups, *setup.truths[s],
                                           *scenario.points[p].schemes[s].scheme, shared.windows,
                                           scenario.interval_level, scenario.outputs.estimates);
}

// A progress line over the replications of a run's units.
std::function<void(std::uint64_t)> progress_line(const Scenario& scenario, const RunOptions& options,
                                                 const std::uint64_t& done_before, std::uint64_t total,
                                                 const std::size_t& last_point) {
  if (!options.progress) return {};
  return [&scenario, &done_before, &last_point, total](std::uint64_t done) {
    std::fprintf(
        stderr, "\r%s: point %zu/%zu, %3.0f%% ", scenario.name.c_str(), last_point + 1, scenario.points.size(),
        100.0 * static_cast<double>(done_before + done) / static_cast<double>(std::max<std::uint64_t>(total, 1)));
    std::fflush(stderr);
  };
}

// Sets up the points of `units` (indices into `plan`, increasing) wave by wave
// and calls on_wave(wave, setups, the wave's units, replication options with
// this run's progress line).
template <class OnWave>
void for_each_wave(const Scenario& scenario, const std::vector<WorkUnit>& plan, const std::vector<std::size_t>& units,
                   const RunOptions& options, const OnWave& on_wave) {
  const unsigned threads = std::max(1u, options.threads);
  std::vector<std::uint64_t> units_of_point(scenario.points.size(), 0);
  std::vector<std::size_t> points;
  std::uint64_t total = 0;
  for (std::size_t u : units) {
    if (units_of_point[plan[u].point]++ == 0) points.push_back(plan[u].point);
    total += plan[u].replications;
  }
  PointSetups setups(scenario, points, threads);
  std::uint64_t done_before = 0;
  std::size_t next = 0;  // first unit of the current wave
  for (const auto& wave : make_waves(scenario, points, units_of_point, threads)) {
    if (options.cancelled && options.cancelled()) throw RunCancelled();
    setups.prepare(wave);
    std::vector<std::size_t> wave_units;
    while (next < units.size() && plan[units[next]].point <= wave.back()) wave_units.push_back(units[next++]);
    on_wave(wave, setups, wave_units,
            ReplicationOptions{threads, progress_line(scenario, options, done_before, total, wave.back()),
                               options.cancelled});
    for (std::size_t u : wave_units) done_before += plan[u].replications;
    setups.release(wave);
  }
  if (options.progress) std::fprintf(stderr, "\r%*s\r", 60, "");
}

// Replicates a wave's units in one pool: consume(i, state of wave_units[i]) on
// the worker that ran it.
template <class Consume>
void replicate_wave(const Scenario& scenario, const std::vector<WorkUnit>& plan, const std::vector<std::size_t>& wave,
                    const PointSetups& setups, const std::vector<std::size_t>& wave_units,
                    const ReplicationOptions& replication, const Consume& consume) {
  const WaveJobs jobs = wave_jobs(scenario, wave);
  std::vector<BlockId> blocks;
  blocks.reserve(wave_units.size());
  for (std::size_t u : wave_units) blocks.push_back({jobs.job_of.at({plan[u].point, plan[u].scheme}), plan[u].block});
  run_blocks(
      jobs.ranges, blocks,
      [&](std::size_t j) {
        return make_evaluator(scenario, setups, jobs.point_scheme[j].first, jobs.point_scheme[j].second);
      },
      consume, replication);
}

// A unit's state read from a part must have the shape its scheme gives on its
// point's trace before it is merged and indexed: otherwise an InputError naming
// `origin` (the part it came from).
void check_unit_shape(const Scenario& scenario, const WorkUnit& unit, const PointSetup& setup, const BlockResult& block,
                      const std::string& origin) {
  const SchemeInstance& scheme = scenario.points[unit.point].schemes[unit.scheme];
  const BlockShape shape =
      block_shape(*setup.shared->groups, *scheme.scheme, setup.shared->windows, scenario.outputs.estimates);
  if (block.accumulators.size() != shape.accumulators || block.intervals.size() != shape.intervals ||
      block.profiles.size() != shape.profiles ||
      block.total_estimates.size() != unit.replications * shape.estimates_per_replication) {
    throw InputError(origin + ": the state of point " + std::to_string(unit.point) + ", scheme " + scheme.label +
                     ", block " + std::to_string(unit.block) +
                     " is not shaped like that scheme's on this scenario (a corrupt part)");
  }
}

// Appends point p's trace totals and each scheme's rows from its merged result.
void append_point(const Scenario& scenario, std::size_t p, const PointSetup& setup,
                  const std::vector<BlockResult>& merged, ScenarioResult& result) {
  const TraceSetup& shared = *setup.shared;
  result.traces.push_back(trace_totals(*shared.trace));
  for (std::size_t s = 0; s < merged.size(); ++s) {
    append_scheme_rows(
        {scenario, p, s, *shared.groups, shared.windows, *setup.truths[s], setup.theory_sums[s], merged[s]}, result);
  }
}

std::vector<std::size_t> every_unit(std::size_t count) {
  std::vector<std::size_t> all(count);
  for (std::size_t u = 0; u < count; ++u) all[u] = u;
  return all;
}

double seconds_since(std::chrono::steady_clock::time_point started) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

// Each (point, scheme) of a wave: its blocks, merged in block order.
using MergedJobs = std::map<std::pair<std::size_t, std::size_t>, BlockResult>;

// The result of every unit of the scenario, wave by wave:
// merge_wave(wave, setups, wave_units, replication options) gives the wave's
// MergedJobs, from which its points' rows are appended.
template <class MergeWave>
ScenarioResult assemble_result(const Scenario& scenario, const std::vector<WorkUnit>& plan, const RunOptions& options,
                               const MergeWave& merge_wave) {
  const auto started = std::chrono::steady_clock::now();
  ScenarioResult result;
  result.threads = std::max(1u, options.threads);
  for_each_wave(scenario, plan, every_unit(plan.size()), options,
                [&](const std::vector<std::size_t>& wave, const PointSetups& setups,
                    const std::vector<std::size_t>& wave_units, const ReplicationOptions& replication) {
                  MergedJobs merged = merge_wave(wave, setups, wave_units, replication);
                  for (std::size_t p : wave) {
                    std::vector<BlockResult> schemes(scenario.points[p].schemes.size());
                    for (std::size_t s = 0; s < schemes.size(); ++s) schemes[s] = std::move(merged[{p, s}]);
                    append_point(scenario, p, setups.at(p), schemes, result);
                  }
                });
  result.wall_seconds = seconds_since(started);
  return result;
}

}  // namespace

ScenarioResult run_scenario(const Scenario& scenario, const RunOptions& options) {
  const std::vector<WorkUnit> plan = plan_work_units(scenario);
  return assemble_result(
      scenario, plan, options,
      [&](const std::vector<std::size_t>& wave, const PointSetups& setups, const std::vector<std::size_t>& wave_units,
          const ReplicationOptions& replication) {
        // Blocks are folded as they arrive, in block order.
        std::map<std::pair<std::size_t, std::size_t>, replication_detail::OrderedMerge<BlockResult, BlockResult>>
            merges;
        for (std::size_t p : wave) {
          for (std::size_t s = 0; s < scenario.points[p].schemes.size(); ++s) merges[{p, s}];
        }
        replicate_wave(scenario, plan, wave, setups, wave_units, replication, [&](std::size_t i, BlockResult&& block) {
          const WorkUnit& unit = plan[wave_units[i]];
          merges.at({unit.point, unit.scheme}).submit(unit.block, std::move(block));
        });
        MergedJobs merged;
        for (auto& [job, merge] : merges) merged[job] = merge.take();
        return merged;
      });
}

std::vector<BlockResult> run_units(const Scenario& scenario, const std::vector<std::size_t>& units,
                                   const RunOptions& options) {
  const std::vector<WorkUnit> plan = plan_work_units(scenario);
  std::vector<BlockResult> results(units.size());
  std::size_t first = 0;  // of the current wave, in `results`
  for_each_wave(scenario, plan, units, options,
                [&](const std::vector<std::size_t>& wave, const PointSetups& setups,
                    const std::vector<std::size_t>& wave_units, const ReplicationOptions& replication) {
                  replicate_wave(scenario, plan, wave, setups, wave_units, replication,
                                 [&](std::size_t i, BlockResult&& block) { results[first + i] = std::move(block); });
                  first += wave_units.size();
                });
  return results;
}

ScenarioResult merge_units(const Scenario& scenario, const std::vector<BlockResult>& units, const RunOptions& options,
                           const std::vector<std::string>& origins) {
  const std::vector<WorkUnit> plan = plan_work_units(scenario);
  return assemble_result(scenario, plan, options,
                         [&](const std::vector<std::size_t>&, const PointSetups& setups,
                             const std::vector<std::size_t>& wave_units, const ReplicationOptions&) {
                           MergedJobs merged;
                           for (std::size_t u : wave_units) {
                             const WorkUnit& unit = plan[u];
                             check_unit_shape(scenario, unit, setups.at(unit.point), units.at(u),
                                              origins.empty() ? "work unit " + std::to_string(u) : origins.at(u));
                             merged[{unit.point, unit.scheme}].merge(units.at(u));
                           }
                           return merged;
                         });
}

}  // namespace allocsim
