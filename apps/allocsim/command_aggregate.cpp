// `allocsim aggregate P1 P2 ...`: many heap profiles of one program (a fleet, or
// repeated dumps) pooled into one: per site, the summed samples, the sum (or with
// --mean the mean over the N profiles) of the estimates, its interval from the pooled
// counts (exact at one rate, Fay-Feuer's at several), and the aggregate's detection
// limit (profile/aggregate.h). A command
// of its own rather than `allocsim profile P1 P2 ...`: profile's --csv, --pprof and
// --report and its rank resampling describe one file (its records, its annotated
// copy), which a pool of several has not.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "allocsim/profile/aggregate.h"
#include "allocsim/profile/read_profile.h"
#include "allocsim/util/byte_units.h"
#include "allocsim/util/error.h"
#include "commands.h"
#include "flag_checks.h"
#include "jemalloc_unbias_option.h"

namespace allocsim::cli {
namespace {

struct AggregateOptions {
  std::vector<std::string> paths;
  profile::ReadOptions read;
  double level = 0.95;
  std::size_t top = 20;
  bool mean = false;
  bool json = false;
};

// "1 profile", "3 profiles".
std::string counted(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// "rate 32 KiB: 1 profile, rate 512 KiB: 2 profiles", by rate.
std::string rates_words(const std::vector<profile::SamplingModel>& models) {
  std::map<double, std::pair<const profile::SamplingModel*, std::size_t>> by_rate;
  for (const profile::SamplingModel& model : models) {
    auto& [first, count] = by_rate[model.rate];
    if (first == nullptr) first = &model;
    ++count;
  }
  std::string words;
  for (const auto& [rate, at_rate] : by_rate) {
    if (!words.empty()) words += ", ";
    words += profile::rate_words(*at_rate.first) + ": " + counted(at_rate.second, "profile");
  }
  return words;
}

// The profile whose rate samples least (largest T): the worst case of the detection limit.
const profile::SamplingModel& sparsest(const std::vector<profile::SamplingModel>& models) {
  return *std::max_element(
      models.begin(), models.end(),
      [](const profile::SamplingModel& x, const profile::SamplingModel& y) { return x.rate < y.rate; });
}

std::string aggregate_json(const profile::Aggregate& a, const std::vector<std::string>& paths) {
  nlohmann::json j;
  j["profiles"] = paths;
  j["scheme"] = a.model.system;
  j["model"] = profile::model_description(a.model);
  j["window"] = a.window;
  j["statistic"] = a.mean ? "mean" : "sum";
  j["level"] = a.level;
  j["detection_limit_95_bytes"] = a.detection_limit_95;
  if (a.rates_differ) {  // at one rate the worst case is the limit itself, and the output stays as it was
    j["rates"] = nlohmann::json::array();
    for (const profile::SamplingModel& model : a.models) j["rates"].push_back(model.rate);
    j["detection_limit_95_assumes"] = "bytes spread evenly over the profiles";
    j["detection_limit_95_worst_bytes"] = a.detection_limit_95_worst;
  }
  j["entries"] = nlohmann::json::array();
  for (const profile::AggregateEntry& e : a.entries) {
    j["entries"].push_back({{"stack", e.stack},
                            {"object_size", e.object_size},
                            {"mixed_sizes", e.mixed_sizes},
                            {"samples", e.samples},
                            {"profiles_with_samples", e.profiles_with_samples},
                            {"bytes", e.estimate_bytes},
                            {"bytes_lower", e.interval.bytes_lower},
                            {"bytes_upper", e.interval.bytes_upper},
                            {"objects_lower", e.interval.objects_lower},
                            {"objects_upper", e.interval.objects_upper},
                            {"method", e.interval.method}});
  }
  return j.dump(2) + "\n";
}

std::string aggregate_table(const profile::Aggregate& a, std::size_t top) {
  const std::string statistic = a.mean ? "mean per profile" : "sum";
  std::ostringstream s;
  s << counted(a.profiles, "profile") << " of " << a.model.system << " (" << profile::model_description(a.model)
    << "), " << a.window << " window, " << counted(a.entries.size(), "site") << "; ";
  if (a.rates_differ) s << "the rates differ (" << rates_words(a.models) << "); ";
  s << "bytes are the " << statistic << " over the " << counted(a.profiles, "profile") << ", the interval "
    << (a.rates_differ ? "Fay-Feuer's gamma interval for a weighted sum of counts (approximate)"
                       : "exact from the pooled samples")
    << "\n";
  char line[512];
  std::snprintf(line, sizeof line, "%4s %11s %8s %10s %25s %8s  %s\n", "rank", "bytes", "samples", "size",
                (std::to_string(static_cast<int>(a.level * 100 + 0.5)) + "% interval").c_str(), "profiles", "stack");
  s << line;
  for (std::size_t i = 0; i < a.entries.size() && i < top; ++i) {
    const profile::AggregateEntry& e = a.entries[i];
    const std::string interval =
        "[" + bytes_approx(e.interval.bytes_lower) + ", " + bytes_approx(e.interval.bytes_upper) + "]";
    std::snprintf(line, sizeof line, "%4zu %11s %8.0f %10s %25s %4zu/%-3zu  ", i + 1,
                  bytes_approx(e.estimate_bytes).c_str(), e.samples,
                  ((e.mixed_sizes ? "~" : "") + bytes_approx(e.object_size)).c_str(), interval.c_str(),
                  e.profiles_with_samples, a.profiles);
    s << line << e.label << "\n";  // the label past the buffer: frames can be long
  }
  s << "detection limit: a site needs " << bytes_approx(a.detection_limit_95) << " of true bytes ("
    << (a.mean ? "per profile, on average" : "summed over the profiles")
    << (a.rates_differ ? ", spread evenly over them" : "") << ") for a 95% chance to appear in at least one profile";
  if (a.rates_differ) {
    s << "; " << bytes_approx(a.detection_limit_95_worst) << " if all are in one profile at "
      << profile::rate_words(sparsest(a.models)) << " (the worst case)";
  }
  s << "\n";
  return s.str();
}

void run_aggregate(const AggregateOptions& options) {
  if (!(options.level > 0 && options.level < 1)) throw InputError("--level must be in (0, 1)");
  std::vector<profile::HeapProfile> profiles;
  for (const std::string& path : options.paths) profiles.push_back(profile::read_profile(path, options.read));
  const profile::Aggregate a = profile::aggregate_profiles(profiles, options.level, options.mean);
  std::cout << (options.json ? aggregate_json(a, options.paths) : aggregate_table(a, options.top));
}

}  // namespace

void add_aggregate_command(CLI::App& app, int& exit_code) {
  CLI::App* command =
      app.add_subcommand("aggregate", "Pool many heap profiles of one program: the sum or mean per site, its interval");
  auto options = std::make_shared<AggregateOptions>();
  command->add_option("profiles", options->paths, "Heap profiles of one program and sampling scheme (rates may differ)")
      ->required();
  command->add_option("--window", options->read.window, "inuse or alloc; default: each profile's own");
  add_jemalloc_unbias_option(*command, options->read);
  command->add_flag("--mean", options->mean, "The mean over the profiles instead of their sum");
  command->add_option("--level", options->level, "Confidence level of the intervals")
      ->capture_default_str()
      ->transform(open_fraction());
  command->add_option("--top", options->top, "Sites to show")->capture_default_str()->check(whole_number(1));
  command->add_flag("--json", options->json, "Print JSON (every site) instead of the table");
  command->callback([options, &exit_code] {
    run_aggregate(*options);
    exit_code = 0;
  });
}

}  // namespace allocsim::cli
