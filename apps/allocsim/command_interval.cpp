// `allocsim interval`: the .NET document's confidence interval for bytes
// allocated from s samples and u tail bytes, or (with --table) its table of
// negative binomial quantiles, exact and by Camp-Paulson; with --scheme, the exact
// interval for an entry of n samples of objects of a given size in the profile of
// that scheme (profile/entry_interval.h).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "allocsim/estimate/bytes_interval.h"
#include "allocsim/estimate/quantile_table.h"
#include "allocsim/outputs/value_format.h"
#include "allocsim/profile/entry_interval.h"
#include "allocsim/util/byte_units.h"
#include "allocsim/util/error.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/printable.h"
#include "commands.h"
#include "flag_checks.h"

namespace allocsim::cli {
namespace {

using interval::IntervalMethod;
using interval::QuantileRounding;

struct IntervalOptions {
  std::int64_t samples = 0;
  std::int64_t tail_bytes = 0;
  double p = 1.0 / 102400.0;
  double level = 0.95;
  std::string method = "exact";
  std::string rounding = "up";
  bool boundary_correction = false;
  bool table = false;
  bool json = false;
  std::string scheme;
  double size = 0;
  double rate = 0;
};

std::vector<IntervalMethod> parse_methods(const std::string& name) {
  if (name == "exact") return {IntervalMethod::exact};
  if (name == "camp-paulson") return {IntervalMethod::camp_paulson};
  if (name == "both") return {IntervalMethod::exact, IntervalMethod::camp_paulson};
  throw InputError("--method must be exact, camp-paulson or both, got " + printable(name));
}

QuantileRounding parse_rounding(const std::string& name) {
  for (const auto rounding : {QuantileRounding::up, QuantileRounding::down, QuantileRounding::real}) {
    if (name == interval::rounding_name(rounding)) return rounding;
  }
  throw InputError("--rounding must be up, down or real, got " + printable(name));
}

// Whole numbers print as integers, anything else with ten significant digits.
std::string plain_number(double value) {
  char text[40];
  if (value == std::floor(value) && std::fabs(value) < 1e16) {
    std::snprintf(text, sizeof text, "%.0f", value);
  } else {
    std::snprintf(text, sizeof text, "%.10g", value);
  }
  return text;
}

void require_given(const CLI::App& command, const char* flag) {
  if (command.count(flag) == 0) throw InputError(std::string(flag) + " is required");
}

void reject_given(const CLI::App& command, const char* flag) {
  if (command.count(flag) != 0) {
    throw InputError(std::string(flag) + " does not apply to --table");
  }
}

void print_interval(const IntervalOptions& options, QuantileRounding rounding) {
  nlohmann::json results = nlohmann::json::array();
  for (const IntervalMethod method : parse_methods(options.method)) {
    const interval::BytesInterval bytes = interval::bytes_interval({
        .samples = options.samples,
        .tail_bytes = options.tail_bytes,
        .p = options.p,
        .level = options.level,
        .method = method,
        .boundary_correction = options.boundary_correction,
        .rounding = rounding,
    });
    results.push_back({{"method", interval::method_name(method)},
                       {"level", options.level},
                       {"estimate", bytes.estimate},
                       {"lower", bytes.lower},
                       {"upper", bytes.upper},
                       {"samples", options.samples},
                       {"tail_bytes", options.tail_bytes},
                       {"p", options.p},
                       {"boundary_correction", options.boundary_correction},
                       {"rounding", interval::rounding_name(rounding)}});
  }
  if (options.json) {
    std::cout << json_text(results.size() == 1 ? results.front() : results, 2) << '\n';
    return;
  }
  std::printf("bytes allocated, %.10g%% interval from %lld samples and %lld tail bytes\n", 100.0 * options.level,
              static_cast<long long>(options.samples), static_cast<long long>(options.tail_bytes));
  std::printf("(p = %.10g, quantile rounding %s, boundary correction %s)\n", options.p,
              interval::rounding_name(rounding), options.boundary_correction ? "on" : "off");
  std::printf("%-14s %20s %20s %20s\n", "method", "estimate", "lower", "upper");
  for (const auto& result : results) {
    std::printf("%-14s %20s %20s %20s\n", result["method"].get<std::string>().c_str(),
                plain_number(result["estimate"]).c_str(), plain_number(result["lower"]).c_str(),
                plain_number(result["upper"]).c_str());
  }
}

void print_table(const IntervalOptions& options, QuantileRounding rounding) {
  const double lower_probability = (1.0 - options.level) / 2.0;
  const double upper_probability = (1.0 + options.level) / 2.0;
  const auto rows = interval::quantile_table(options.p, options.level, rounding);
  if (options.json) {
    nlohmann::json table = {{"p", options.p},
                            {"level", options.level},
                            {"rounding", interval::rounding_name(rounding)},
                            {"lower_probability", lower_probability},
                            {"upper_probability", upper_probability},
                            {"rows", nlohmann::json::array()}};
    for (const auto& row : rows) {
      table["rows"].push_back({{"samples", row.samples},
                               {"exact", {{"lower", row.exact.lower}, {"upper", row.exact.upper}}},
                               {"camp_paulson", {{"lower", row.camp_paulson.lower}, {"upper", row.camp_paulson.upper}}},
                               {"camp_paulson_max_cdf_error", row.camp_paulson_cdf_error.max_abs_error},
                               {"camp_paulson_max_cdf_error_at_failures", row.camp_paulson_cdf_error.at_failures}});
    }
    std::cout << json_text(table, 2) << '\n';
    return;
  }
  std::printf("negative binomial failures at CDF = %.10g and %.10g (p = %.10g, rounding %s)\n", lower_probability,
              upper_probability, options.p, interval::rounding_name(rounding));
  std::printf("%8s %14s %14s %14s %14s %14s %14s\n", "samples", "exact lower", "exact upper", "CP lower", "CP upper",
              "CP max|dCDF|", "at failures");
  for (const auto& row : rows) {
    std::printf("%8lld %14s %14s %14s %14s %14.3g %14s\n", static_cast<long long>(row.samples),
                plain_number(row.exact.lower).c_str(), plain_number(row.exact.upper).c_str(),
                plain_number(row.camp_paulson.lower).c_str(), plain_number(row.camp_paulson.upper).c_str(),
                row.camp_paulson_cdf_error.max_abs_error, plain_number(row.camp_paulson_cdf_error.at_failures).c_str());
  }
}

// The interval of one profile entry under a scheme's sampling model.
void print_scheme_interval(const IntervalOptions& options) {
  const profile::SamplingModel model = profile::model_for_scheme(options.scheme, options.rate, "--scheme/--rate");
  const auto samples = static_cast<double>(options.samples);
  const profile::EntryInterval ci = profile::entry_interval(model, samples, options.size, options.level, false);
  const double estimate_bytes = samples / profile::samples_per_byte(model, options.size);
  const auto miss = [&](double bytes) {
    return profile::probability_no_sample(model, bytes / options.size, options.size);
  };
  const nlohmann::json result = {
      {"scheme", options.scheme},
      {"model", profile::model_name(model.kind)},
      {"method", ci.method},
      {"level", options.level},
      {"samples", options.samples},
      {"size", options.size},
      {"rate", options.rate},
      {"estimate", {{"bytes", estimate_bytes}, {"objects", estimate_bytes / options.size}}},
      {"bytes", {ci.bytes_lower, ci.bytes_upper}},
      {"objects", {ci.objects_lower, ci.objects_upper}},
      {"p_no_sample",
       {{"at_estimate", miss(estimate_bytes)}, {"at_lower", miss(ci.bytes_lower)}, {"at_upper", miss(ci.bytes_upper)}}},
      {"detection_limit_bytes",
       {{"p50", profile::detection_limit_bytes(model, 0.5, options.size)},
        {"p95", profile::detection_limit_bytes(model, 0.95, options.size)}}}};
  if (options.json) {
    std::cout << json_text(result, 2) << '\n';
    return;
  }
  // Bytes in binary units, objects to 4 significant digits, chances in percent: the
  // full values are in --json.
  const auto objects = [](double count) { return format_value(count, Unit::none, 4); };
  const auto chance = [](double p) { return format_value(p, Unit::percent, 3); };
  std::printf("%s: %lld samples of %s objects at rate %s (%s)\n", options.scheme.c_str(),
              static_cast<long long>(options.samples), bytes_exact(options.size).c_str(),
              bytes_exact(options.rate).c_str(), profile::model_name(model.kind).c_str());
  std::printf("method: %s, %s interval\n", ci.method.c_str(), format_value(options.level, Unit::percent, 4).c_str());
  std::printf("%-13s %14s %14s %14s\n", "", "estimate", "lower", "upper");
  std::printf("%-13s %14s %14s %14s\n", "bytes", format_bytes(estimate_bytes).c_str(),
              format_bytes(ci.bytes_lower).c_str(), format_bytes(ci.bytes_upper).c_str());
  std::printf("%-13s %14s %14s %14s\n", "objects", objects(estimate_bytes / options.size).c_str(),
              objects(ci.objects_lower).c_str(), objects(ci.objects_upper).c_str());
  std::printf("%-13s %14s %14s %14s\n", "P(no sample)", chance(miss(estimate_bytes)).c_str(),
              chance(miss(ci.bytes_lower)).c_str(), chance(miss(ci.bytes_upper)).c_str());
  std::printf("(P(no sample): the chance that an entry holding that many bytes gets no sample at all)\n");
  std::printf("an entry needs %s for a 50%% chance to appear, %s for 95%%\n",
              format_bytes(result["detection_limit_bytes"]["p50"].get<double>()).c_str(),
              format_bytes(result["detection_limit_bytes"]["p95"].get<double>()).c_str());
}

void run_interval(const CLI::App& command, const IntervalOptions& options) {
  if (command.count("--scheme") != 0) {
    for (const char* flag : {"--tail-bytes", "--p", "--table", "--method", "--rounding", "--boundary-correction"}) {
      if (command.count(flag) != 0) throw InputError(std::string(flag) + " does not apply to --scheme");
    }
    for (const char* flag : {"--samples", "--size", "--rate"}) require_given(command, flag);
    // The sample count is a double in the model: above 2^52 not every whole number is one.
    if (options.samples > (std::int64_t{1} << 52)) throw InputError("--samples must be at most 2^52 with --scheme");
    print_scheme_interval(options);
    return;
  }
  for (const char* flag : {"--size", "--rate"}) {
    if (command.count(flag) != 0) throw InputError(std::string(flag) + " needs --scheme");
  }
  const QuantileRounding rounding = parse_rounding(options.rounding);
  if (options.table) {
    for (const char* flag : {"--samples", "--tail-bytes", "--method", "--boundary-correction"}) {
      reject_given(command, flag);
    }
    print_table(options, rounding);
    return;
  }
  for (const char* flag : {"--samples", "--tail-bytes", "--p"}) require_given(command, flag);
  print_interval(options, rounding);
}

}  // namespace

void add_interval_command(CLI::App& app, int& exit_code) {
  CLI::App* command = app.add_subcommand(
      "interval", "Confidence interval for bytes allocated from s samples and u tail bytes (.NET), or with "
                  "--scheme for a profile entry of n samples of one object size");
  auto options = std::make_shared<IntervalOptions>();
  command->add_option("--samples", options->samples, "Sample events in the window (s >= 0)")
      ->check(whole_number(0, std::numeric_limits<std::int64_t>::max()));
  command
      ->add_option("--tail-bytes", options->tail_bytes,
                   "Sum over samples of size - offset in bytes (u >= s; 4096, 64KiB)")
      ->transform(whole_byte_count(0, std::numeric_limits<std::int64_t>::max()));
  command
      ->add_option("--p", options->p,
                   "Per-byte sampling probability in (0, 1): 1e-5, 1/102400 (--table default 1/102400)")
      ->transform(open_fraction());
  command->add_option("--level", options->level, "Confidence level in (0, 1)")
      ->capture_default_str()
      ->transform(open_fraction());
  command->add_option("--method", options->method, "exact, camp-paulson or both")->capture_default_str();
  command
      ->add_option("--rounding", options->rounding,
                   "Discrete quantile rule: up (CDF(k-1) < P <= CDF(k)), down "
                   "(CDF(k) <= P < CDF(k+1), the .NET document's table) or real")
      ->capture_default_str();
  command->add_flag("--boundary-correction", options->boundary_correction,
                    "Window not aligned on sample events: lower bound from s-1, upper from s+1");
  command->add_flag("--table", options->table, "Print the .NET document's quantile table for both methods");
  command->add_option("--scheme", options->scheme,
                      "Entry interval for this scheme's profiles (with --samples, --size, --rate)");
  command
      ->add_option("--size", options->size, "Object size of the entry in bytes (with --scheme): 48, 1KiB, below 2^64")
      ->transform(byte_amount({0, 0x1p64, true, true}));
  command
      ->add_option("--rate", options->rate,
                   "Sampling rate T of the scheme: mean bytes (allocations for per-allocation) "
                   "between samples: 524288, 512KiB")
      ->transform(positive_byte_amount());
  command->add_flag("--json", options->json, "Print JSON");
  command->callback([command, options, &exit_code] {
    run_interval(*command, *options);
    exit_code = 0;
  });
}

}  // namespace allocsim::cli
