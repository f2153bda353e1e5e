#include "allocsim/profile/margins_output.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "allocsim/util/byte_units.h"
#include "allocsim/util/json_text.h"

namespace allocsim::profile {
namespace {

// Standard error of a measured proportion near `p` over n replications.
double proportion_se(double p, std::uint64_t n) { return std::sqrt(p * (1 - p) / static_cast<double>(n)); }

nlohmann::ordered_json check_json(const Margins& margins, const MarginsRun& run) {
  const MarginCheck& check = *run.check;
  nlohmann::ordered_json sites = nlohmann::ordered_json::array();
  for (std::size_t s = 0; s < margins.sites.size(); ++s) {
    sites.push_back({{"name", margins.sites[s].site.name},
                     {"false_failure", check.fraction(check.failures[s])},
                     {"power", check.fraction(check.detections[s])}});
  }
  const CheckBound bound = check_bound(check, margins.options.false_failure);
  return {{"replications", check.replications},
          {"seed", run.seed},
          {"allowed_failures", bound.allowed_failures},
          {"bound_false_alarm", kCheckFalseAlarm},
          {"passed", bound.passed},
          {"whole_false_failure", check.fraction(check.any_failure)},
          {"whole_false_failure_se", proportion_se(margins.whole_false_failure, check.replications)},
          {"sites", sites}};
}

}  // namespace

std::string margins_json(const Margins& margins, const MarginsRun& run) {
  nlohmann::ordered_json sites = nlohmann::ordered_json::array();
  for (const SiteMargin& m : margins.sites) {
    nlohmann::ordered_json sizes = nlohmann::ordered_json::array();
    for (const auto& [size, objects] : m.site.sizes) sizes.push_back({{"size", size}, {"allocations", objects}});
    // The allocation that ends an unseen start: sampled for certain, outside `sizes`.
    nlohmann::ordered_json certain = nlohmann::ordered_json::array();
    for (const auto& [size, objects] : m.site.certain) certain.push_back({{"size", size}, {"allocations", objects}});
    sites.push_back({{"name", m.site.name},
                     {"stack", m.site.stack},
                     {"true_bytes", m.site.bytes},
                     {"sizes", sizes},
                     {"certain", certain},
                     {"expected", m.expected},
                     {"lower", m.lower},
                     {"upper", m.upper},
                     {"false_failure", m.false_failure},
                     {"method", band_method(m, margins.options.value)},
                     {"power", m.power ? nlohmann::ordered_json(*m.power) : nlohmann::ordered_json()},
                     {"power_method", m.power_method}});
  }
  nlohmann::ordered_json out = {{"schema", "allocsim-margins/1"},
                                {"workload", run.workload},
                                {"scheme", margins.model.system},
                                {"rate", margins.model.rate},
                                {"model", model_description(margins.model)},
                                {"value", value_name(margins.options.value)},
                                {"false_failure", margins.options.false_failure},
                                {"split", split_name(margins.options.split)},
                                {"site_false_failure", margins.site_false_failure},
                                {"whole_false_failure", margins.whole_false_failure},
                                {"union_bound", margins.union_bound},
                                {"bias", margins.options.bias},
                                {"sites", sites}};
  if (margins.model.unsampled_start > 0) out["unsampled_start_bytes"] = margins.model.unsampled_start;
  if (run.check) out["check"] = check_json(margins, run);
  return json_text(out, 2) + "\n";
}

namespace {

// A table cell of the value a test checks: bytes with their unit, the expected value
// at a glance ("20.0 MiB") and a band's bounds as whole bytes to assert, widened
// outward ("11730944 B"; --json has them unrounded); samples and shares as numbers.
std::string value_cell(MarginValue value, double x, int outward) {
  if (value == MarginValue::bytes && outward == 0) return bytes_approx(x);
  char text[40];
  if (value == MarginValue::bytes) {
    std::snprintf(text, sizeof text, "%.0f B", outward < 0 ? std::floor(x) : std::ceil(x));
  } else {
    std::snprintf(text, sizeof text, "%.6g", x);
  }
  return text;
}

}  // namespace

std::string margins_table(const Margins& margins, const MarginsRun& run) {
  std::string text;
  char line[512];
  std::snprintf(line, sizeof line, "%s: %s at rate %s (%s); value: %s\n", run.workload.c_str(),
                margins.model.system.c_str(), bytes_exact(margins.model.rate).c_str(),
                model_description(margins.model).c_str(), value_name(margins.options.value).c_str());
  text += line;
  std::snprintf(line, sizeof line,
                "false failure for the whole test %.3g, split by %s: %.3g per site; the bands' own: %.3g "
                "(union bound %.3g)\n",
                margins.options.false_failure, split_name(margins.options.split).c_str(), margins.site_false_failure,
                margins.whole_false_failure, margins.union_bound);
  text += line;
  std::snprintf(line, sizeof line, "%-32s %14s %14s %14s %10s %10s  %s\n", "site", "expected", "lower", "upper",
                "P(fail)", "power", "band");
  text += line;
  for (const SiteMargin& m : margins.sites) {
    char power[32] = "-";
    if (m.power) std::snprintf(power, sizeof power, "%.4f", *m.power);
    const MarginValue value = margins.options.value;
    std::snprintf(line, sizeof line, "%-32.32s %14s %14s %14s %10.3g %10s  %s\n", m.site.name.c_str(),
                  value_cell(value, m.expected, 0).c_str(), value_cell(value, m.lower, -1).c_str(),
                  value_cell(value, m.upper, +1).c_str(), m.false_failure, power, m.exact ? "exact" : "union bound");
    text += line;
  }
  std::snprintf(line, sizeof line, "power: P(the site fails) when the profiler's value for it is off by %+.3g%%\n",
                100 * margins.options.bias);
  text += line;
  if (margins.model.unsampled_start > 0) {
    text += margins.model.system + " samples nothing in its main thread's first " +
            bytes_approx(margins.model.unsampled_start) +
            " (the allocation that ends it is sampled for certain): the bands are of the estimate it reports, "
            "below the expected (true) value when a site allocates there\n";
  }
  if (run.check) {
    const MarginCheck& check = *run.check;
    std::snprintf(line, sizeof line,
                  "checked by the engine (%llu replications of the scheme's sampler, seed %llu): whole-test "
                  "false failure %.4g (model %.4g, SE %.2g)\n",
                  static_cast<unsigned long long>(check.replications), static_cast<unsigned long long>(run.seed),
                  check.fraction(check.any_failure), margins.whole_false_failure,
                  proportion_se(margins.whole_false_failure, check.replications));
    text += line;
    for (std::size_t s = 0; s < margins.sites.size(); ++s) {
      std::snprintf(line, sizeof line, "  %-30.30s false failure %.4g, power %.4g\n",
                    margins.sites[s].site.name.c_str(), check.fraction(check.failures[s]),
                    check.fraction(check.detections[s]));
      text += line;
    }
  }
  return text;
}

}  // namespace allocsim::profile
