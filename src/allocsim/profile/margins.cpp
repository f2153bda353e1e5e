#include "allocsim/profile/margins.h"

#include <algorithm>
#include <cmath>

#include "allocsim/profile/scaled_counts.h"
#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

// One independent count per size (per-allocation models) or one for the whole site
// (byte-rate model).
std::vector<ScaledCounts> site_counts(const SamplingModel& model, const MarginSite& site, MarginValue value) {
  if (model.kind == ModelKind::poisson_bytes) {
    return {scaled_poisson(site.bytes / model.rate, sample_weight(model, value, 1.0))};
  }
  std::vector<ScaledCounts> counts;
  for (const auto& [size, objects] : site.sizes) {
    const auto s = static_cast<double>(size);
    counts.push_back(scaled_binomial(static_cast<double>(objects), sample_probability(model, s),
                                     sample_weight(model, value, s)));
  }
  return counts;
}

double expected_value(const SamplingModel& model, const MarginSite& site, MarginValue value) {
  if (value == MarginValue::bytes) return site.bytes;
  if (model.kind == ModelKind::poisson_bytes) return site.bytes / model.rate;
  double samples = 0;
  for (const auto& [size, objects] : site.sizes) {
    samples += static_cast<double>(objects) * sample_probability(model, static_cast<double>(size));
  }
  return samples;
}

// The exact distribution of the site's value, or nothing past the atom limit.
std::optional<ScaledCounts> exact_distribution(const std::vector<ScaledCounts>& counts, std::size_t atom_limit) {
  std::optional<ScaledCounts> sum = counts.front();
  for (std::size_t i = 1; i < counts.size() && sum; ++i) sum = convolve(*sum, counts[i], atom_limit);
  return sum;
}

// Byte bands are widened to whole bytes, and by one byte per size for the systems
// that write each record (stack, size) truncated to an integer (Go's int64 values),
// and by a relative 1e-9 for the rounding of sums of scaled samples taken in
// another order: a value on the band's edge must not fail by rounding.
Band widened(Band band, const SiteMargin& margin, MarginValue value) {
  if (value == MarginValue::samples) return band;
  const auto records = static_cast<double>(margin.site.sizes.size());
  return {std::max(0.0, std::floor(band.lower * (1 - 1e-9)) - records), std::ceil(band.upper * (1 + 1e-9))};
}

void exact_margin(const ScaledCounts& value, double budget, const MarginOptions& options, SiteMargin& margin) {
  // The dropped tails count against the budget, so f <= budget holds exactly.
  const Band band = widened(central_band(value, (budget - value.dropped) / 2), margin, options.value);
  margin.lower = band.lower;
  margin.upper = band.upper;
  margin.false_failure = value.outside(1, band.lower, band.upper) + value.dropped;
  margin.power = value.outside(1 + options.bias, band.lower, band.upper);
  margin.power_method = "exact";
}

// Each of the k counts within its own band at budget / k: the sum lies within the sum
// of the bands unless some count does not (probability <= the sum of theirs).
void union_margin(const std::vector<ScaledCounts>& counts, double budget, MarginValue value, SiteMargin& margin) {
  const double share = budget / static_cast<double>(counts.size());
  margin.exact = false;
  Band sum;
  margin.false_failure = 0;
  for (const ScaledCounts& count : counts) {
    const Band band = central_band(count, (share - count.dropped) / 2);
    sum.lower += band.lower;
    sum.upper += band.upper;
    margin.false_failure += count.outside(1, band.lower, band.upper) + count.dropped;
  }
  sum = widened(sum, margin, value);
  margin.lower = sum.lower;
  margin.upper = sum.upper;
  margin.power_method = "by the engine (margins --check)";
}

}  // namespace

double sample_weight(const SamplingModel& model, MarginValue value, double size) {
  if (value == MarginValue::samples) return 1.0;
  if (model.kind == ModelKind::poisson_bytes) return model.rate;
  return 1.0 / samples_per_byte(model, size);
}

Margins compute_margins(const SamplingModel& model, const std::vector<MarginSite>& sites,
                        const MarginOptions& options) {
  if (!(options.false_failure > 0 && options.false_failure < 1)) {
    throw InputError("--false-failure must be in (0, 1)");
  }
  if (!(options.bias > -1) || !std::isfinite(options.bias)) throw InputError("--bias must be a number > -1");
  if (sites.empty()) throw InputError("no site to give a margin: the workload has none above --min-share");
  Margins margins;
  margins.model = model;
  margins.options = options;
  const auto m = static_cast<double>(sites.size());
  margins.site_false_failure = options.split == FailureSplit::sidak
                                   ? -std::expm1(std::log1p(-options.false_failure) / m)
                                   : options.false_failure / m;
  double log_all_pass = 0;
  for (const MarginSite& site : sites) {
    SiteMargin margin;
    margin.site = site;
    margin.expected = expected_value(model, site, options.value);
    const std::vector<ScaledCounts> counts = site_counts(model, site, options.value);
    if (const auto value = exact_distribution(counts, options.atom_limit)) {
      exact_margin(*value, margins.site_false_failure, options, margin);
    } else {
      union_margin(counts, margins.site_false_failure, options.value, margin);
    }
    margins.union_bound += margin.false_failure;
    log_all_pass += std::log1p(-margin.false_failure);
    margins.sites.push_back(std::move(margin));
  }
  margins.whole_false_failure = -std::expm1(log_all_pass);
  return margins;
}

std::string value_name(MarginValue value) { return value == MarginValue::bytes ? "bytes" : "samples"; }

std::string split_name(FailureSplit split) { return split == FailureSplit::sidak ? "sidak" : "bonferroni"; }

std::string band_method(bool exact) {
  return exact ? "exact distribution of the sum of scaled counts"
               : "union over sizes (each size's exact band at an equal share; conservative)";
}

}  // namespace allocsim::profile
