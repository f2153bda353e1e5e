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
#include "allocsim/util/file_text.h"

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

// What the verdict needs of the model, and the driver's version.
ConformanceResult result_of_model(const ConformanceModel& model, const DriverRun& first) {
  ConformanceResult result;
  result.system = model.system;
  result.model = model.moments;
  result.version = first.meta.count("version") ? first.meta.at("version") : "unknown";
  return result;
}

using SizeTable = std::map<std::uint64_t, std::uint64_t>;  // requested size -> allocated size

// The allocated size the model gives each planned requested size.
SizeTable model_size_table(const Scheme& scheme, const Trace& trace) {
  SizeTable sizes;
  for (std::size_t i = 0; i < trace.size(); ++i) sizes[trace.requested[i]] = scheme.allocated_size(trace, i);
  return sizes;
}

// The real allocator's sizes (the first run's size lines) against the model's.
void check_size_table(const SizeTable& model_sizes, const DriverRun& first, ConformanceResult& result) {
  for (const auto& [requested, allocated] : first.sizes) {
    ++result.sizes_checked;
    if (model_sizes.count(requested) && model_sizes.at(requested) != allocated) ++result.size_mismatches;
  }
}

// The size each sample was recorded with (jemalloc's usize, Go's slot) against the model's.
void check_sample_sizes(const SizeTable& model_sizes, const std::vector<DriverRun>& runs, ConformanceResult& result) {
  if (!result.system->samples_have_sizes) return;
  for (const DriverRun& run : runs) {
    for (const DriverSample& sample : run.samples) {
      const auto it = model_sizes.find(sample.requested);
      if (it == model_sizes.end()) continue;  // not a planned size: reported as unexplained
      ++result.sample_sizes_checked;
      if (it->second != sample.usable) ++result.sample_size_mismatches;
    }
  }
}

using SiteIndex = std::map<std::string, std::size_t>;  // site name -> its index in the plan

SiteIndex index_sites(const Plan& plan) {
  SiteIndex index;
  for (std::size_t s = 0; s < plan.sites.size(); ++s) index[plan.sites[s].name] = s;
  return index;
}

// One row per planned site, before any run is read.
std::vector<SiteObservations> planned_sites(const Plan& plan) {
  std::vector<SiteObservations> observed(plan.sites.size());
  for (std::size_t s = 0; s < plan.sites.size(); ++s) {
    observed[s].name = plan.sites[s].name;
    observed[s].rounding = static_cast<double>(plan.sites[s].sizes.size());
  }
  return observed;
}

// Whether the tool gives estimates is decided once for the system: a scaled profile
// always does; estimate lines do when any run has them, and a run without any
// then estimates 0 at every site.
bool tool_gives_estimates(const ConformanceSystem& system, const std::vector<DriverRun>& runs) {
  return system.scaling != ProfileScaling::none ||
         std::any_of(runs.begin(), runs.end(), [](const DriverRun& run) { return !run.estimates.empty(); });
}

// Whether a sample line counts as a sampled allocation of the compared heap.
bool counted(const DriverSample& sample, const ConformanceSystem& system) {
  return sample.live || system.samples_include_freed;
}

// One driver run read site by site.
struct RunBySite {
  std::vector<double> counts;     // sampled allocations per site
  std::vector<double> estimates;  // the tool's estimate per site
  std::string signature;          // every sample line, in order: runs that repeat one another share it
};

// The run's samples counted per planned site; a sample of a size its site never
// allocates is added to `unexplained`, named by the run's output file.
void count_samples(const DriverRun& run, const std::string& output, const ConformanceModel& model,
                   const SiteIndex& index, RunBySite& by_site, std::vector<std::string>& unexplained) {
  for (const DriverSample& sample : run.samples) {
    by_site.signature += sample.site + ":" + std::to_string(sample.requested) + (sample.live ? "," : "-,");
    const auto it = index.find(sample.site);
    if (it == index.end()) continue;
    const PlanSite& site = model.plan.sites[it->second];
    if (model.system->samples_have_sizes &&
        std::find(site.sizes.begin(), site.sizes.end(), sample.requested) == site.sizes.end()) {
      unexplained.push_back(output + ": site " + sample.site + " sampled size " + std::to_string(sample.requested));
    }
    if (counted(sample, *model.system)) by_site.counts[it->second] += 1;
  }
}

// The tool's estimate per planned site: its profile scaled the way jeprof and pprof
// scale it, or its own estimate lines.
void add_estimates(const DriverRun& run, const ConformanceModel& model, const SiteIndex& index, RunBySite& by_site) {
  if (model.system->scaling == ProfileScaling::average_size) {
    for (const DriverTotals& stack : run.profile) {
      const auto it = index.find(stack.site);
      if (it != index.end()) by_site.estimates[it->second] += scaled_bytes(stack, static_cast<double>(model.plan.rate));
    }
  } else {
    for (const DriverTotals& site : run.estimates) {
      const auto it = index.find(site.site);
      if (it != index.end()) by_site.estimates[it->second] += site.bytes;
    }
  }
}

RunBySite read_run_by_site(const DriverRun& run, const std::string& output, const ConformanceModel& model,
                           const SiteIndex& index, std::vector<std::string>& unexplained) {
  const std::size_t sites = model.plan.sites.size();
  RunBySite by_site{std::vector<double>(sites, 0.0), std::vector<double>(sites, 0.0), ""};
  count_samples(run, output, model, index, by_site, unexplained);
  add_estimates(run, model, index, by_site);
  return by_site;
}

// Every run read site by site: the per-site rows compared with the model, and the
// result's counts, estimates, unexplained samples and number of distinct runs.
std::vector<SiteObservations> observe_sites(const ConformanceModel& model, const std::vector<DriverRun>& runs,
                                            const std::vector<std::string>& outputs, ConformanceResult& result) {
  const SiteIndex index = index_sites(model.plan);
  std::vector<SiteObservations> observed = planned_sites(model.plan);
  const bool has_estimates = tool_gives_estimates(*model.system, runs);
  std::set<std::string> distinct;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const RunBySite run = read_run_by_site(runs[r], outputs[r], model, index, result.unexplained);
    distinct.insert(run.signature);
    for (std::size_t s = 0; s < observed.size(); ++s) {
      observed[s].counts.push_back(run.counts[s]);
      if (has_estimates) observed[s].estimates.push_back(run.estimates[s]);
    }
    result.counts.push_back(run.counts);
    if (has_estimates) result.estimates.push_back(run.estimates);
  }
  result.distinct_runs = distinct.size();
  return observed;
}

// Each site's truth, in the quantity the compared estimator estimates (a site's
// live allocated bytes are also its net ones).
void set_truths(std::vector<SiteObservations>& observed, const ModelMoments& moments, Quantity target) {
  for (std::size_t s = 0; s < observed.size(); ++s) {
    const SiteMoments& m = moments.sites[s];
    const bool allocated = target == Quantity::allocated_bytes || target == Quantity::net_allocated_bytes;
    observed[s].truth = target == Quantity::requested_bytes ? m.live_requested
                        : allocated                         ? m.live_allocated
                                                            : m.live_count;
  }
}

// Per run: its counted samples by site, then by requested size, in one pass over them.
using SamplesBySize = std::map<std::string, std::map<std::uint64_t, double>>;
std::vector<SamplesBySize> samples_by_size(const std::vector<DriverRun>& runs, const ConformanceSystem& system) {
  std::vector<SamplesBySize> out(runs.size());
  for (std::size_t r = 0; r < runs.size(); ++r) {
    for (const DriverSample& sample : runs[r].samples) {
      if (!counted(sample, system)) continue;
      out[r].try_emplace(sample.site).first->second[sample.requested] += 1;  // copies a site's name once
    }
  }
  return out;
}

// A part of a site with several sizes (a stack "site:size" of the split trace):
// how many of each run's samples land on that size, counts only.
SiteObservations size_part(const std::string& name, const std::vector<SamplesBySize>& runs) {
  const std::size_t colon = name.find(':');
  const std::string site = name.substr(0, colon);
  const std::uint64_t size = std::stoull(name.substr(colon + 1));
  SiteObservations part;
  part.name = name;
  part.part = true;
  for (const SamplesBySize& run : runs) {
    double count = 0;
    if (const auto of_site = run.find(site); of_site != run.end()) {
      if (const auto of_size = of_site->second.find(size); of_size != of_site->second.end()) count = of_size->second;
    }
    part.counts.push_back(count);
  }
  return part;
}

// Which sizes the samples of a site with several sizes land on: one more row per
// (site, size), compared with the split trace's moments.
void add_size_parts(const ConformanceModel& model, const std::vector<DriverRun>& runs,
                    std::vector<SiteObservations>& observed, ModelMoments& compared) {
  if (!model.system->samples_have_sizes) return;
  const Trace& split = model.split;
  const std::vector<SamplesBySize> by_size = samples_by_size(runs, *model.system);
  for (std::uint32_t s = 0; s < split.stack_count; ++s) {
    if (split.stack_names[s].find(':') == std::string::npos) continue;
    observed.push_back(size_part(split.stack_names[s], by_size));
    compared.sites.push_back(model.split_moments.sites[s]);
  }
}

// The verdict: the sites agree, the runs differ (unless the system repeats them),
// and every size and sample is the one the model expects.
bool conformance_passed(const ConformanceResult& result, std::size_t runs) {
  const bool runs_differ = result.distinct_runs == runs || !result.system->repeated_runs_expected.empty();
  return result.comparison.passed && runs_differ && result.size_mismatches == 0 && result.sample_size_mismatches == 0 &&
         result.unexplained.empty();
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
  for (std::string& path : names) {
    if (system.translate_output) {
      const std::string translated = path + ".csv";
      const std::string output = read_file_text(path, "the driver's output");
      try {
        write_file_atomically(translated, system.translate_output(output));
      } catch (const InputError& e) {
        throw InputError(path + ": " + e.what());
      }
      path = translated;
    }
    outputs.push_back(read_driver_output(path));
  }
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
  ConformanceResult result = judge_runs(model, runs, outputs, alpha);
  result.plan = model.plan;
  result.trace = model.trace;
  result.scheme_parameters = model.scheme_parameters;
  return result;
}

ConformanceResult judge_runs(const ConformanceModel& model, const std::vector<DriverRun>& runs,
                             const std::vector<std::string>& outputs, double alpha) {
  ConformanceResult result = result_of_model(model, runs.front());
  // The model's allocator sizes against the real allocator's (when the model has its own table).
  if (!model.system->records_allocated_sizes) {
    const SizeTable model_sizes = model_size_table(*model.scheme, model.trace);
    check_size_table(model_sizes, runs.front(), result);
    check_sample_sizes(model_sizes, runs, result);
  }
  std::vector<SiteObservations> observed = observe_sites(model, runs, outputs, result);
  set_truths(observed, result.model, model.scheme->estimators()[model.request.estimator].quantity);
  ModelMoments compared = result.model;
  add_size_parts(model, runs, observed, compared);
  result.comparison = compare_sites(observed, compared, alpha);
  result.passed = conformance_passed(result, runs.size());
  return result;
}

}  // namespace allocsim
