#include "allocsim/conformance/conformance_run.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <set>

#include "allocsim/conformance/driver_output.h"
#include "allocsim/conformance/driver_runner.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/util/atomic_file.h"
#include "allocsim/util/error.h"

namespace fs = std::filesystem;

namespace allocsim {
namespace {

std::size_t estimator_index(const Scheme& scheme, const std::string& name) {
  const auto& estimators = scheme.estimators();
  for (std::size_t e = 0; e < estimators.size(); ++e) {
    if (estimators[e].name == name) return e;
  }
  throw InputError("conformance: the model has no estimator " + name);
}

// jeprof's / pprof's scaling of one stack: by the inverse inclusion probability of
// its average sampled size.
double scaled_bytes(const DriverTotals& stack, double rate) {
  if (stack.objects <= 0) return 0.0;
  return stack.bytes / -std::expm1(-(stack.bytes / stack.objects) / rate);
}

}  // namespace

ConformanceModel conformance_plan(const ConformanceOptions& options) {
  ConformanceModel model;
  const ConformanceSystem* system = find_conformance_system(options.system);
  if (system == nullptr) {
    std::string known;
    for (const auto& s : conformance_systems()) known += (known.empty() ? "" : ", ") + s.name;
    throw InputError("conformance: unknown system \"" + options.system + "\" (known: " + known + ")");
  }
  model.system = system;
  const std::uint64_t rate = options.rate.value_or(system->default_rate);
  if (rate < 2) throw InputError("--rate: must be at least 2 bytes");
  if (system->rate_power_of_two && !std::has_single_bit(rate)) {
    throw InputError("--rate: " + system->name + " samples at powers of two only (lg_prof_sample); got " +
                     std::to_string(rate));
  }
  if (options.runs < 2) throw InputError("--runs: at least 2 runs are needed for a variance");
  if (options.model_replications < 2) {
    throw InputError("--model-replications: at least 2 replications are needed for a variance");
  }
  if (find_scheme(system->scheme) == nullptr) {
    throw InputError("conformance " + system->name + ": allocsim has no scheme \"" + system->scheme + "\" to model it");
  }
  model.scheme_parameters = system->scheme_parameters;
  model.scheme_parameters[system->rate_parameter] = rate;
  // The model with the rate, before any driver runs: a rate it rejects fails here.
  estimator_index(*create_scheme(system->scheme, model.scheme_parameters, "conformance " + system->name + " model"),
                  system->estimator);
  model.plan = standard_plan(rate, options.plan_scale);
  model.request.count_live_only = !system->samples_include_freed;
  model.request.replications = options.model_replications;
  model.request.seed = options.seed;
  model.request.threads = options.threads;
  return model;
}

void fit_conformance_model(ConformanceModel& model, const DriverRun& first, const std::string& first_name) {
  const ConformanceSystem& system = *model.system;
  if (system.records_allocated_sizes && first.sizes.empty()) {
    throw InputError(first_name + ": the driver reported no sizes");
  }
  if (system.records_allocated_sizes) model.allocated = first.sizes;
  model.trace = plan_trace(model.plan, model.allocated);
  model.split = plan_trace(model.plan, model.allocated, true);
  if (system.from_meta) system.from_meta(model.scheme_parameters, first.meta);
  model.scheme = create_scheme(system.scheme, model.scheme_parameters, "conformance " + system.name + " model");
  model.request.estimator = estimator_index(*model.scheme, system.estimator);
  model.moments = model_moments(*model.scheme, model.trace, model.request);
  model.split_moments = model_moments(*model.scheme, model.split, model.request);
}

std::vector<DriverRun> run_driver_processes(const ConformanceOptions& options, const ConformanceModel& model,
                                            std::uint64_t runs, std::vector<std::string>& names) {
  const ConformanceSystem& system = *model.system;
  DriverPaths paths{options.source_dir, (fs::path(options.build_dir) / "conformance" / system.name).string()};
  const std::string binary = build_driver(system, paths);
  const std::string plan_file = (fs::path(paths.work_dir) / "plan.txt").string();
  write_file_atomically(plan_file, encode_plan(model.plan));
  names = run_drivers(system, paths, binary, plan_file, model.plan.rate, runs, options.parallel);
  std::vector<DriverRun> outputs;
  for (const std::string& path : names) outputs.push_back(read_driver_output(path));
  return outputs;
}

ConformanceResult run_conformance(const ConformanceOptions& options) {
  ConformanceModel model = conformance_plan(options);
  std::vector<std::string> names;
  const std::vector<DriverRun> runs = run_driver_processes(options, model, options.runs, names);
  fit_conformance_model(model, runs.front(), names.front());
  return judge_conformance(model, runs, names, options.alpha);
}

ConformanceResult judge_conformance(const ConformanceModel& model, const std::vector<DriverRun>& runs,
                                    const std::vector<std::string>& outputs, double alpha) {
  ConformanceResult result;
  const ConformanceSystem* system = model.system;
  const Scheme& scheme = *model.scheme;
  result.system = system;
  result.plan = model.plan;
  result.trace = model.trace;
  result.scheme_parameters = model.scheme_parameters;
  result.model = model.moments;
  const std::uint64_t rate = model.plan.rate;
  result.version = runs.front().meta.count("version") ? runs.front().meta.at("version") : "unknown";
  // The model's allocator sizes against the real allocator's (when the model has its own table).
  if (!system->records_allocated_sizes) {
    std::map<std::uint64_t, std::uint64_t> model_sizes;
    for (std::size_t i = 0; i < result.trace.size(); ++i) {
      model_sizes[result.trace.requested[i]] = scheme.allocated_size(result.trace, i);
    }
    for (const auto& [requested, allocated] : runs.front().sizes) {
      ++result.sizes_checked;
      if (model_sizes.count(requested) && model_sizes.at(requested) != allocated) ++result.size_mismatches;
    }
    // And the size each sample was recorded with (jemalloc's usize, Go's slot).
    for (const DriverRun& run : runs) {
      for (const DriverSample& sample : run.samples) {
        const auto it = model_sizes.find(sample.requested);
        if (it == model_sizes.end()) continue;  // not a planned size: reported as unexplained below
        ++result.sample_sizes_checked;
        if (it->second != sample.usable) ++result.sample_size_mismatches;
      }
    }
  }

  // Observations per site.
  std::map<std::string, std::size_t> site_index;
  std::vector<SiteObservations> observed(result.plan.sites.size());
  for (std::size_t s = 0; s < result.plan.sites.size(); ++s) {
    const PlanSite& site = result.plan.sites[s];
    site_index[site.name] = s;
    observed[s].name = site.name;
    observed[s].rounding = static_cast<double>(site.sizes.size());
  }
  std::set<std::string> distinct;
  // Whether the tool gives estimates is decided once for the system: a scaled profile
  // always does; estimate lines do when any run has them, and a run without any
  // then estimates 0 at every site.
  const bool has_estimates =
      system->scaling != ProfileScaling::none ||
      std::any_of(runs.begin(), runs.end(), [](const DriverRun& run) { return !run.estimates.empty(); });
  for (std::size_t r = 0; r < runs.size(); ++r) {
    std::vector<double> counts(observed.size(), 0.0), estimates(observed.size(), 0.0);
    std::string signature;
    for (const DriverSample& sample : runs[r].samples) {
      signature += sample.site + ":" + std::to_string(sample.requested) + (sample.live ? "," : "-,");
      const auto it = site_index.find(sample.site);
      if (it == site_index.end()) continue;
      const PlanSite& site = result.plan.sites[it->second];
      if (std::find(site.sizes.begin(), site.sizes.end(), sample.requested) == site.sizes.end()) {
        result.unexplained.push_back(outputs[r] + ": site " + sample.site + " sampled size " +
                                     std::to_string(sample.requested));
      }
      if (sample.live || system->samples_include_freed) counts[it->second] += 1;
    }
    distinct.insert(signature);
    if (system->scaling == ProfileScaling::average_size) {
      for (const DriverTotals& stack : runs[r].profile) {
        const auto it = site_index.find(stack.site);
        if (it != site_index.end()) estimates[it->second] += scaled_bytes(stack, static_cast<double>(rate));
      }
    } else {
      for (const DriverTotals& site : runs[r].estimates) {
        const auto it = site_index.find(site.site);
        if (it != site_index.end()) estimates[it->second] += site.bytes;
      }
    }
    for (std::size_t s = 0; s < observed.size(); ++s) {
      observed[s].counts.push_back(counts[s]);
      if (has_estimates) observed[s].estimates.push_back(estimates[s]);
    }
    result.counts.push_back(counts);
    if (has_estimates) result.estimates.push_back(estimates);
  }
  result.distinct_runs = distinct.size();

  const Quantity target = scheme.estimators()[model.request.estimator].quantity;
  for (std::size_t s = 0; s < observed.size(); ++s) {
    const SiteMoments& m = result.model.sites[s];
    observed[s].truth = target == Quantity::requested_bytes   ? m.live_requested
                        : target == Quantity::allocated_bytes ? m.live_allocated
                                                              : m.live_count;
  }
  // Which sizes the samples of a site with several sizes land on: one more row per
  // (site, size), counts only.
  const Trace& split = model.split;
  const ModelMoments& split_model = model.split_moments;
  ModelMoments compared = result.model;
  for (std::uint32_t s = 0; s < split.stack_count; ++s) {
    const std::string& name = split.stack_names[s];
    const std::size_t colon = name.find(':');
    if (colon == std::string::npos) continue;
    const std::string site = name.substr(0, colon);
    const std::uint64_t size = std::stoull(name.substr(colon + 1));
    SiteObservations part;
    part.name = name;
    part.part = true;
    for (const DriverRun& run : runs) {
      double count = 0;
      for (const DriverSample& sample : run.samples) {
        count += sample.site == site && sample.requested == size && (sample.live || system->samples_include_freed);
      }
      part.counts.push_back(count);
    }
    observed.push_back(part);
    compared.sites.push_back(split_model.sites[s]);
  }
  result.comparison = compare_sites(observed, compared, alpha);
  const bool runs_differ = result.distinct_runs == runs.size() || !system->repeated_runs_expected.empty();
  result.passed = result.comparison.passed && runs_differ && result.size_mismatches == 0 &&
                  result.sample_size_mismatches == 0 &&
                  result.unexplained.empty();
  return result;
}

}  // namespace allocsim
