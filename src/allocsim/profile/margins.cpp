#include "allocsim/profile/margins.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "allocsim/profile/scaled_counts.h"
#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

// Refuses, before it is built, a count whose kept pmf would take more than
// kMaxCountAtoms atoms: about 24 standard deviations of it (margins.h).
void require_few_atoms(const MarginSite& site, double variance) {
  const double atoms = 24 * std::sqrt(variance) + 64;
  if (atoms <= kMaxCountAtoms) return;
  char text[300];
  std::snprintf(text, sizeof text,
                "site '%s': its samples vary too much for an exact band (variance %.3g: about %.3g atoms, "
                "limit %.0f); check it at a larger --rate or with fewer bytes",
                site.name.c_str(), variance, atoms, kMaxCountAtoms);
  throw InputError(text);
}

// One independent count per size (per-allocation models) or one for the whole site
// (byte-rate model).
std::vector<ScaledCounts> site_counts(const SamplingModel& model, const MarginSite& site, MarginValue value) {
  std::vector<ScaledCounts> counts;
  // Allocations sampled for certain outside the model (the end of an unseen start),
  // each one sample scaled as the system scales any.
  for (const auto& [size, objects] : site.certain) {
    const auto s = static_cast<double>(size);
    counts.push_back(scaled_binomial(static_cast<double>(objects), 1.0, sample_weight(model, value, s)));
  }
  if (model.kind == ModelKind::poisson_bytes) {
    double sampled_bytes = 0;  // those not recorded whole
    for (const auto& [size, objects] : site.sizes) {
      const auto s = static_cast<double>(size);
      if (!recorded_whole(model, s)) {
        sampled_bytes += s * static_cast<double>(objects);
        continue;
      }
      counts.push_back(scaled_binomial(static_cast<double>(objects), 1.0, sample_weight(model, value, s)));
    }
    const double mean = sampled_bytes / model.rate;
    require_few_atoms(site, mean);
    counts.push_back(scaled_poisson(mean, sample_weight(model, value, 1.0)));
    return counts;
  }
  for (const auto& [size, objects] : site.sizes) {
    const auto s = static_cast<double>(size);
    const double p = sample_probability(model, s), n = static_cast<double>(objects);
    require_few_atoms(site, n * p * (1 - p));
    counts.push_back(scaled_binomial(n, p, sample_weight(model, value, s)));
  }
  return counts;
}

// A band leaves its site's share of the rate (the sum for shares) only when the mass
// its distribution leaves out is larger than the share: refused, not reported.
void require_within_budget(const SiteMargin& margin, double budget, double false_failure) {
  if (margin.false_failure <= budget * (1 + 1e-9)) return;
  char text[300];
  std::snprintf(text, sizeof text,
                "--false-failure: %.3g leaves site '%s' a share of %.3g, below what its band can resolve "
                "(%.3g); give a larger rate",
                false_failure, margin.site.name.c_str(), budget, margin.false_failure);
  throw InputError(text);
}

double expected_value(const SamplingModel& model, const MarginSite& site, MarginValue value) {
  if (value == MarginValue::bytes) return site.bytes;  // the truth the test compares with
  double samples = 0, sampled_bytes = 0;
  for (const auto& [size, objects] : site.certain) samples += static_cast<double>(objects);
  for (const auto& [size, objects] : site.sizes) {
    const auto s = static_cast<double>(size), n = static_cast<double>(objects);
    if (model.kind != ModelKind::poisson_bytes) {
      samples += n * sample_probability(model, s);
    } else if (recorded_whole(model, s)) {
      samples += n;
    } else {
      sampled_bytes += n * s;
    }
  }
  return model.kind == ModelKind::poisson_bytes ? samples + sampled_bytes / model.rate : samples;
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
Band widened(Band band, const MarginSite& site, MarginValue value) {
  if (value == MarginValue::samples) return band;
  const auto records = static_cast<double>(site.sizes.size());
  return {std::max(0.0, std::floor(band.lower * (1 - 1e-9)) - records), std::ceil(band.upper * (1 + 1e-9))};
}

// A band for the value of `site` that it leaves with probability `false_failure` <=
// `budget`: exact from its distribution (kept for the power), or the union over its
// sizes, each count within its own band at budget / k (the sum lies within the sum of
// the bands unless some count does not).
struct ValueBand {
  Band band;
  double false_failure = 0;
  std::optional<ScaledCounts> distribution;  // empty for the union over sizes
};

ValueBand value_band(const SamplingModel& model, const MarginSite& site, MarginValue value, double budget,
                     std::size_t atom_limit) {
  const std::vector<ScaledCounts> counts = site_counts(model, site, value);
  if (counts.empty()) return {};  // nothing allocated: the value is 0
  ValueBand result;
  result.distribution = exact_distribution(counts, atom_limit);
  if (result.distribution) {
    result.band = tightest_band(*result.distribution, site, value, budget, &result.false_failure);
    return result;
  }
  const double share = budget / static_cast<double>(counts.size());
  for (const ScaledCounts& count : counts) {
    const Band band = central_band(count, (share - count.dropped) / 2);
    result.band.lower += band.lower;
    result.band.upper += band.upper;
    result.false_failure += count.outside(1, band.lower, band.upper) + count.dropped;
  }
  result.band = widened(result.band, site, value);
  return result;
}

constexpr const char* kPowerByEngine = "by the engine (margins --check)";

// The site's bytes X and the rest's R are independent: S = X / (X + R) rises with X
// and falls with R, so S lies in [x_lo / (x_lo + r_hi), x_hi / (x_hi + r_lo)] unless X
// or R leaves its band, each at half the budget (a union bound: conservative).
void share_margin(const SamplingModel& model, const MarginSite& whole, double budget, std::size_t atom_limit,
                  SiteMargin& margin) {
  MarginSite rest{"rest", 0, whole.sizes, whole.bytes - margin.site.bytes, whole.certain};
  for (const auto& [size, objects] : margin.site.sizes) {
    if ((rest.sizes[size] -= objects) == 0) rest.sizes.erase(size);
  }
  for (const auto& [size, objects] : margin.site.certain) {
    if ((rest.certain[size] -= objects) == 0) rest.certain.erase(size);
  }
  const ValueBand x = value_band(model, margin.site, MarginValue::bytes, budget / 2, atom_limit);
  const ValueBand r = value_band(model, rest, MarginValue::bytes, budget / 2, atom_limit);
  margin.expected = margin.site.bytes / whole.bytes;
  margin.exact = false;
  margin.lower = x.band.lower / (x.band.lower + r.band.upper) * (1 - 1e-9);
  margin.upper = std::min(1.0, x.band.upper / (x.band.upper + r.band.lower) * (1 + 1e-9));
  margin.false_failure = x.false_failure + r.false_failure;
  margin.power_method = kPowerByEngine;
}

}  // namespace

double sample_weight(const SamplingModel& model, MarginValue value, double size) {
  if (value == MarginValue::samples) return 1.0;
  if (recorded_whole(model, size)) return size;
  if (model.kind == ModelKind::poisson_bytes) return model.rate;
  return 1.0 / samples_per_byte(model, size);
}

Margins compute_margins(const SamplingModel& model, const std::vector<MarginSite>& sites, const MarginOptions& options,
                        const MarginSite& whole) {
  if (!(options.false_failure >= kMinFalseFailure && options.false_failure < 1)) {
    throw InputError("--false-failure must be in [1e-12, 1): the bands cannot resolve a smaller rate");
  }
  if (!(options.bias > -1) || !std::isfinite(options.bias)) throw InputError("--bias must be a number > -1");
  if (sites.empty()) throw InputError("no site to give a margin: the workload has none above --min-share");
  const bool share = options.value == MarginValue::share;
  if (share && options.split == FailureSplit::sidak) {
    throw InputError("--split sidak needs independent sites, and shares are not: use --split bonferroni");
  }
  if (share && !(whole.bytes > 0)) throw std::logic_error("compute_margins: shares need the whole workload");
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
    if (share) {
      share_margin(model, whole, margins.site_false_failure, options.atom_limit, margin);
    } else {
      margin.expected = expected_value(model, site, options.value);
      const ValueBand value = value_band(model, site, options.value, margins.site_false_failure, options.atom_limit);
      margin.lower = value.band.lower;
      margin.upper = value.band.upper;
      margin.false_failure = value.false_failure;
      margin.exact = value.distribution.has_value();
      margin.power_method = kPowerByEngine;
      if (value.distribution) {
        margin.power = value.distribution->outside(1 + options.bias, margin.lower, margin.upper);
        margin.power_method = "exact";
      }
    }
    require_within_budget(margin, margins.site_false_failure, options.false_failure);
    margins.union_bound += margin.false_failure;
    log_all_pass += std::log1p(-margin.false_failure);
    margins.sites.push_back(std::move(margin));
  }
  // Shares are not independent: the whole test is held by the union bound alone.
  margins.whole_false_failure = share ? margins.union_bound : -std::expm1(log_all_pass);
  return margins;
}

Band tightest_band(const ScaledCounts& x, const MarginSite& site, MarginValue value, double false_failure,
                   double* its_rate) {
  // The dropped tails count against the rate, so its own rate <= false_failure holds exactly.
  const Band band = widened(central_band(x, (false_failure - x.dropped) / 2), site, value);
  if (its_rate != nullptr) *its_rate = x.outside(1, band.lower, band.upper) + x.dropped;
  return band;
}

MarginWorkload margin_workload(const Trace& trace, const Scheme& scheme, const SamplingModel& model, double min_share) {
  MarginWorkload workload{sites_of_trace(trace, scheme, min_share), whole_workload(trace, scheme)};
  if (model.unsampled_start > 0) {
    const UnsampledStart start = unsampled_start(trace, scheme, static_cast<std::uint64_t>(model.unsampled_start));
    for (MarginSite& site : workload.sites) take_out_start(site, start);
    take_out_start(workload.whole, start, true);
  }
  return workload;
}

std::string value_name(MarginValue value) {
  switch (value) {
    case MarginValue::bytes: return "bytes";
    case MarginValue::samples: return "samples";
    case MarginValue::share: return "share";
  }
  return "";
}

std::string split_name(FailureSplit split) { return split == FailureSplit::sidak ? "sidak" : "bonferroni"; }

std::string band_method(const SiteMargin& margin, MarginValue value) {
  if (value == MarginValue::share) {
    return "share from the site's and the rest's byte bands at half the budget each (union bound; conservative)";
  }
  return margin.exact ? "exact distribution of the sum of scaled counts"
                      : "union over sizes (each size's exact band at an equal share; conservative)";
}

}  // namespace allocsim::profile
