#include "allocsim/profile/flaky.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "allocsim/engine/replications.h"
#include "allocsim/engine/scheme_replay.h"
#include "allocsim/json/byte_size.h"
#include "allocsim/profile/count_change.h"
#include "allocsim/profile/margins.h"
#include "allocsim/profile/margins_check.h"
#include "allocsim/profile/scaled_counts.h"
#include "allocsim/random/stream_purpose.h"
#include "allocsim/util/byte_units.h"
#include "allocsim/util/error.h"
#include "allocsim/util/json_text.h"

namespace allocsim::profile {
namespace {

using Kind = FlakyAssertion::Kind;

std::string format(const char* pattern, double a) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, a);
  return text;
}

std::string value_word(FlakyValue value) {
  return value == FlakyValue::bytes ? "bytes" : value == FlakyValue::samples ? "samples" : "count";
}

std::string amount(FlakyValue value, double x) {
  if (value == FlakyValue::bytes) return bytes_approx(x) + " (" + format("%.0f", x) + " B)";
  return format("%.6g", x) + (value == FlakyValue::samples ? " samples" : " objects");
}

std::size_t site_index(const JsonValue& name, const std::vector<MarginSite>& sites) {
  const std::string text = name.string();
  for (std::size_t i = 0; i < sites.size(); ++i) {
    if (sites[i].name == text) return i;
  }
  name.fail("no site named \"" + text + "\" in the workload");
}

std::pair<double, double> band(const JsonValue& value, FlakyValue kind) {
  const std::vector<JsonValue> ends = value.array();
  if (ends.size() != 2) value.fail("a band is [lower, upper]");
  const auto read = [&](const JsonValue& end) {
    if (kind == FlakyValue::bytes) {
      if (end.is_string()) return parse_byte_size(end.string(), end.path());
      return end.non_negative_number();
    }
    return end.non_negative_number();
  };
  const double lower = read(ends[0]), upper = read(ends[1]);
  if (!(lower <= upper)) value.fail("the lower end is above the upper end");
  return {lower, upper};
}

// Weight of one sample at `size` in the value.
double flaky_weight(const SamplingModel& model, FlakyValue value, double size) {
  if (value == FlakyValue::samples) return 1.0;
  const double bytes = sample_weight(model, MarginValue::bytes, size);
  return value == FlakyValue::bytes ? bytes : bytes / size;
}

// The exact distribution of a site's value: one count per size (Poisson counts of
// equal weight merged: the byte-rate model's samples in disjoint bytes are independent
// Poisson), or nothing past the atom limit.
std::optional<ScaledCounts> distribution(const SamplingModel& model, const MarginSite& site, FlakyValue value,
                                         std::size_t atom_limit,
                                         const std::map<std::uint64_t, std::uint64_t>& certain = {}) {
  std::vector<ScaledCounts> counts;
  for (const auto& [size, objects] : certain) {
    const auto s = static_cast<double>(size);
    counts.push_back(scaled_binomial(static_cast<double>(objects), 1.0, flaky_weight(model, value, s)));
  }
  std::map<double, double> poisson;  // weight -> mean samples
  for (const auto& [size, objects] : site.sizes) {
    const auto s = static_cast<double>(size), n = static_cast<double>(objects);
    const double w = flaky_weight(model, value, s);
    if (recorded_whole(model, s)) {
      counts.push_back(scaled_binomial(n, 1.0, w));
    } else if (model.kind == ModelKind::poisson_bytes) {
      poisson[w] += n * s / model.rate;
    } else {
      const double p = sample_probability(model, s);
      if (24 * std::sqrt(n * p * (1 - p)) + 64 > kMaxCountAtoms) return std::nullopt;
      counts.push_back(scaled_binomial(n, p, w));
    }
  }
  for (const auto& [w, mean] : poisson) {
    if (24 * std::sqrt(mean) + 64 > kMaxCountAtoms) return std::nullopt;
    counts.push_back(scaled_poisson(mean, w));
  }
  if (counts.empty()) return ScaledCounts{{0.0}, {1.0}, 0};
  std::optional<ScaledCounts> sum = counts.front();
  for (std::size_t i = 1; i < counts.size() && sum; ++i) sum = convolve(*sum, counts[i], atom_limit);
  return sum;
}

// P(the site has no sample): each size's chance of none, multiplied (0 where a size is recorded whole).
double no_sample(const SamplingModel& model, const MarginSite& site,
                 const std::map<std::uint64_t, std::uint64_t>& certain = {}) {
  if (!certain.empty()) return 0;
  double p = 1;
  for (const auto& [size, objects] : site.sizes) {
    const auto s = static_cast<double>(size);
    if (recorded_whole(model, s)) return 0;
    p *= probability_no_sample(model, static_cast<double>(objects), s);
  }
  return p;
}

double at_most(const ScaledCounts& x, double v) { return std::max(0.0, 1 - x.dropped - x.above(v)); }

// P(X / (X + R) < lower) + P(X / (X + R) > upper), X and R independent (share 0 when both are 0).
double share_outside(const ScaledCounts& x, const ScaledCounts& r, double lower, double upper) {
  const double x_zero = x.below(std::nextafter(0.0, 1.0)), x_positive = 1 - x.dropped - x_zero;
  double sum = 0;
  for (std::size_t i = 0; i < r.values.size(); ++i) {
    const double rest = r.values[i], p = r.probabilities[i];
    if (rest <= 0) {  // share 1 when X > 0, else 0
      sum += p * ((lower > 0 ? x_zero : 0) + (upper < 1 ? x_positive : 0));
      continue;
    }
    if (lower > 0) sum += p * (lower >= 1 ? 1 - x.dropped : x.below(lower * rest / (1 - lower)));
    if (upper < 1) sum += p * x.above(upper * rest / (1 - upper));
  }
  return std::min(1.0, sum + x.dropped + r.dropped);
}

const std::map<std::uint64_t, std::uint64_t>& certain_of(const FlakyTest& test, std::size_t site) {
  return test.sites[site].certain;
}

// The rest of the workload: every other site's bytes, convolved.
std::optional<ScaledCounts> rest_of(const FlakyTest& test, std::size_t site, std::size_t atom_limit) {
  MarginSite rest{"rest", 0, {}, 0};
  std::map<std::uint64_t, std::uint64_t> certain;
  for (std::size_t i = 0; i < test.sites.size(); ++i) {
    if (i == site) continue;
    for (const auto& [size, objects] : test.sites[i].sizes) rest.sizes[size] += objects;
    for (const auto& [size, objects] : certain_of(test, i)) certain[size] += objects;
    rest.bytes += test.sites[i].bytes;
  }
  return distribution(*test.model, rest, FlakyValue::bytes, atom_limit, certain);
}

// P(min over `inside` > max over the others) of the sites' bytes, all independent.
double top_set_holds(const std::vector<ScaledCounts>& x, const std::vector<bool>& inside) {
  std::vector<double> values;
  double dropped = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    dropped += x[i].dropped;
    if (!inside[i]) values.insert(values.end(), x[i].values.begin(), x[i].values.end());
  }
  if (values.size() == 0) return 1;
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  double held = 0, previous = 0;
  for (const double v : values) {
    double cdf = 1, all_above = 1;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (inside[i]) {
        all_above *= x[i].above(v);
      } else {
        cdf *= at_most(x[i], v);
      }
    }
    held += (cdf - previous) * all_above;
    previous = cdf;
  }
  return std::max(0.0, held - dropped);
}

// `x` with every value times `scale` (a biased profiler's report of it).
ScaledCounts scaled(ScaledCounts x, double scale) {
  for (double& v : x.values) v *= scale;
  return x;
}

// P(A <= B): the rank "A above B" fails.
double not_above(const ScaledCounts& a, const ScaledCounts& b) {
  double fail = a.dropped + b.dropped;
  for (std::size_t i = 0; i < b.values.size(); ++i) fail += b.probabilities[i] * at_most(a, b.values[i]);
  return std::min(1.0, fail);
}

// The margins' value whose band widening a flaky value takes (counts: whole objects, like bytes).
MarginValue margin_value(FlakyValue value) {
  return value == FlakyValue::samples ? MarginValue::samples : MarginValue::bytes;
}

std::vector<std::size_t> read_names(const JsonValue& list, const std::vector<MarginSite>& sites) {
  std::vector<std::size_t> indices;
  for (const JsonValue& name : list.non_empty_array()) {
    const std::size_t i = site_index(name, sites);
    if (std::find(indices.begin(), indices.end(), i) != indices.end()) name.fail("a site named twice");
    indices.push_back(i);
  }
  return indices;
}

}  // namespace

std::vector<FlakyAssertion> read_assertions(const JsonValue& list, const std::vector<MarginSite>& sites) {
  std::vector<FlakyAssertion> result;
  for (const JsonValue& item : list.non_empty_array()) {
    JsonObject object = item.object();
    FlakyAssertion a;
    a.path = item.path();
    if (auto bias = object.maybe("bias")) {
      a.bias = bias->number();
      if (!(*a.bias > -1)) bias->fail("a bias is a number > -1 (0.1: the profiler over-reports by 10%)");
    }
    if (object.has("sites_present")) {
      a.kind = Kind::sites_present;
      const JsonValue k = object.at("sites_present");
      a.lower = static_cast<double>(k.uint());
      if (auto among = object.maybe("among")) {
        a.sites = read_names(*among, sites);
      } else {
        for (std::size_t i = 0; i < sites.size(); ++i) a.sites.push_back(i);
      }
      if (a.lower > static_cast<double>(a.sites.size())) k.fail("more sites than are counted");
      a.text = "exactly " + format("%.0f", a.lower) + " of " + std::to_string(a.sites.size()) + " sites present";
    } else if (object.has("top")) {
      a.kind = Kind::top;
      a.sites = read_names(object.at("top"), sites);
      a.text = "top " + std::to_string(a.sites.size()) + " by bytes is {";
    } else {
      a.sites.push_back(site_index(object.at("site"), sites));
      const std::string& name = sites[a.sites[0]].name;
      int kinds = 0;
      for (const char* key : {"bytes", "samples", "count", "share", "share_at_least", "present", "above"}) {
        kinds += object.has(key);
      }
      if (kinds != 1) {
        object.fail("an assertion on a site takes one of bytes, samples, count, share, share_at_least, present, above");
      }
      for (const FlakyValue v : {FlakyValue::bytes, FlakyValue::samples, FlakyValue::count}) {
        if (auto ends = object.maybe(value_word(v))) {
          a.kind = Kind::within;
          a.value = v;
          std::tie(a.lower, a.upper) = band(*ends, v);
          a.text = name + " " + value_word(v) + " in [" + amount(v, a.lower) + ", " + amount(v, a.upper) + "]";
        }
      }
      if (auto ends = object.maybe("share")) {
        a.kind = Kind::share_within;
        std::tie(a.lower, a.upper) = band(*ends, FlakyValue::samples);
        if (a.upper > 1) ends->fail("a share is at most 1");
        a.text = name + " share in [" + format("%.4g", a.lower) + ", " + format("%.4g", a.upper) + "] of bytes";
      }
      if (auto x = object.maybe("share_at_least")) {
        a.kind = Kind::share_within;
        a.lower = x->probability();
        a.upper = 1;
        a.text = name + " share >= " + format("%.4g", a.lower) + " of bytes";
      }
      if (auto present = object.maybe("present")) {
        a.kind = present->boolean() ? Kind::present : Kind::absent;
        a.text = name + (a.kind == Kind::present ? " present (>= 1 sample)" : " absent (0 samples)");
      }
      if (auto other = object.maybe("above")) {
        a.kind = Kind::above;
        a.sites.push_back(site_index(*other, sites));
        if (a.sites[1] == a.sites[0]) other->fail("a site cannot rank above itself");
        a.text = name + " bytes > " + sites[a.sites[1]].name + " bytes";
      }
    }
    object.finish();
    if (a.kind == Kind::top) {
      for (std::size_t i = 0; i < a.sites.size(); ++i) a.text += (i ? ", " : "") + sites[a.sites[i]].name;
      a.text += "}";
    }
    result.push_back(std::move(a));
  }
  return result;
}

void apply_startup_window(FlakyTest& test, const Trace& trace, const Scheme& scheme, std::uint64_t startup_bytes) {
  if (startup_bytes == 0) return;
  test.allocations.clear();
  for (const MarginSite& site : test.sites) {
    double objects = 0;
    for (const auto& [size, count] : site.sizes) objects += static_cast<double>(count);
    test.allocations.push_back(objects);
  }
  test.startup_bytes = startup_bytes;
  test.sites_before_start = test.sites;
  test.start_trace = &trace;
  test.start_scheme = &scheme;
  const UnsampledStart start = unsampled_start(trace, scheme, startup_bytes);
  for (MarginSite& site : test.sites) take_out_start(site, start);
}

FlakyRates flaky_rates(const FlakyTest& test, std::size_t atom_limit) {
  FlakyRates rates;
  if (!test.model) {  // no distribution: every rate, and every power, from the engine
    for (const FlakyAssertion& a : test.assertions) {
      FlakyRate rate{std::nullopt, "by the engine"};
      if (a.bias) rate.power_method = "by the engine";
      rates.assertions.push_back(rate);
    }
    combine_whole(test, rates);
    return rates;
  }
  const SamplingModel& model = *test.model;
  std::map<std::pair<std::size_t, FlakyValue>, std::optional<ScaledCounts>> cache;
  const auto dist = [&](std::size_t site, FlakyValue value) -> const std::optional<ScaledCounts>& {
    auto [it, fresh] = cache.try_emplace({site, value});
    if (fresh) it->second = distribution(model, test.sites[site], value, atom_limit, certain_of(test, site));
    return it->second;
  };
  for (const FlakyAssertion& a : test.assertions) {
    FlakyRate rate{std::nullopt, "exact"};
    const double scale = 1 + a.bias.value_or(0);
    switch (a.kind) {
      case Kind::within: {
        const auto& x = dist(a.sites[0], a.value);
        if (!x) break;
        rate.false_failure = std::min(1.0, x->below(a.lower) + x->above(a.upper) + x->dropped);
        if (a.bias) rate.power = std::min(1.0, x->outside(scale, a.lower, a.upper));
        if (test.band_target > x->dropped) {
          double own = 0;
          rate.tightest = tightest_band(*x, test.sites[a.sites[0]], margin_value(a.value), test.band_target, &own);
          rate.tightest_rate = own;
        }
        break;
      }
      case Kind::share_within: {
        const auto& x = dist(a.sites[0], FlakyValue::bytes);
        const auto r = rest_of(test, a.sites[0], atom_limit);
        if (x && r) {
          rate.false_failure = share_outside(*x, *r, a.lower, a.upper);
          if (a.bias) rate.power = share_outside(scaled(*x, scale), *r, a.lower, a.upper);
        }
        break;
      }
      case Kind::present:
        rate.false_failure = no_sample(model, test.sites[a.sites[0]], certain_of(test, a.sites[0]));
        break;
      case Kind::absent:
        rate.false_failure = 1 - no_sample(model, test.sites[a.sites[0]], certain_of(test, a.sites[0]));
        break;
      case Kind::sites_present: {
        std::vector<double> count{1.0};  // P(K = j) over the sites so far
        for (const std::size_t i : a.sites) {
          const double q = 1 - no_sample(model, test.sites[i], certain_of(test, i));
          count.push_back(0);
          for (std::size_t j = count.size() - 1; j > 0; --j) count[j] = count[j] * (1 - q) + count[j - 1] * q;
          count[0] *= 1 - q;
        }
        rate.false_failure = std::max(0.0, 1 - count[static_cast<std::size_t>(a.lower)]);
        break;
      }
      case Kind::above: {
        const auto& x = dist(a.sites[0], FlakyValue::bytes);
        const auto& y = dist(a.sites[1], FlakyValue::bytes);
        if (x && y) {
          rate.false_failure = not_above(*x, *y);
          if (a.bias) rate.power = not_above(scaled(*x, scale), *y);
        }
        break;
      }
      case Kind::top: {
        std::vector<ScaledCounts> x;
        std::vector<bool> inside(test.sites.size(), false);
        for (const std::size_t i : a.sites) inside[i] = true;
        bool all = true;
        for (std::size_t i = 0; i < test.sites.size() && all; ++i) {
          const auto& d = dist(i, FlakyValue::bytes);
          all = d.has_value();
          if (all) x.push_back(*d);
        }
        if (all) {
          rate.false_failure = std::min(1.0, std::max(0.0, 1 - top_set_holds(x, inside)));
          if (a.bias) {
            for (const std::size_t i : a.sites) x[i] = scaled(x[i], scale);
            rate.power = std::min(1.0, std::max(0.0, 1 - top_set_holds(x, inside)));
          }
        }
        break;
      }
    }
    // A bias of the values leaves which sites are sampled as it is.
    const bool presence = !reads_values(a);
    if (a.bias && presence) rate.power = rate.false_failure;
    if (a.bias) {
      rate.power_method = !rate.power ? "by the engine"
                          : presence  ? "exact (a value bias leaves presence as it is)"
                                      : "exact";
    }
    if (!rate.false_failure) rate.method = "by the engine";
    rates.assertions.push_back(rate);
  }
  combine_whole(test, rates);
  return rates;
}

void combine_whole(const FlakyTest& test, FlakyRates& rates) {
  // Shares, top sets and exactly-k read more than their named sites.
  std::set<std::size_t> seen;
  rates.independent = true;
  bool known = true;
  for (std::size_t k = 0; k < test.assertions.size(); ++k) {
    const FlakyAssertion& a = test.assertions[k];
    std::vector<std::size_t> read = a.sites;
    if (a.kind == Kind::share_within || a.kind == Kind::top) {
      read.clear();
      for (std::size_t i = 0; i < test.sites.size(); ++i) read.push_back(i);
    }
    for (const std::size_t i : read) rates.independent = seen.insert(i).second && rates.independent;
    known = known && rates.assertions[k].false_failure.has_value();
  }
  if (!known) {
    rates.whole = NAN;
    rates.whole_method = "by the engine";
    return;
  }
  double sum = 0, log_pass = 0;
  for (const FlakyRate& r : rates.assertions) {
    sum += *r.false_failure;
    log_pass += std::log1p(-std::min(*r.false_failure, 1.0));
  }
  rates.whole = rates.independent ? -std::expm1(log_pass) : std::min(1.0, sum);
  rates.whole_method = rates.independent ? "exact: 1 - prod(1 - f_i), the assertions read disjoint sites"
                                         : "union bound: sum f_i, the assertions share sites";
}

namespace {

constexpr std::uint64_t kFlakyStream = stream_of(StreamPurpose::margins_check);

struct SiteValues {
  std::vector<double> bytes, samples, count;
  double total = 0;
};

bool fails(const FlakyAssertion& a, const SiteValues& v) {
  const std::size_t s = a.sites[0];
  switch (a.kind) {
    case Kind::within: {
      const double x = a.value == FlakyValue::bytes     ? v.bytes[s]
                       : a.value == FlakyValue::samples ? v.samples[s]
                                                        : v.count[s];
      return x < a.lower || x > a.upper;
    }
    case Kind::share_within: {
      const double share = v.total > 0 ? v.bytes[s] / v.total : 0;
      return share < a.lower || share > a.upper;
    }
    case Kind::present: return v.samples[s] == 0;
    case Kind::absent: return v.samples[s] > 0;
    case Kind::sites_present: {
      double k = 0;
      for (const std::size_t i : a.sites) k += v.samples[i] > 0;
      return k != a.lower;
    }
    case Kind::above: return !(v.bytes[s] > v.bytes[a.sites[1]]);
    case Kind::top: {
      double low = INFINITY, high = -INFINITY;
      std::vector<bool> inside(v.bytes.size(), false);
      for (const std::size_t i : a.sites) {
        inside[i] = true;
        low = std::min(low, v.bytes[i]);
      }
      for (std::size_t i = 0; i < v.bytes.size(); ++i) {
        if (!inside[i]) high = std::max(high, v.bytes[i]);
      }
      return !(low > high);
    }
  }
  return false;
}

// The values a profiler biased for `a` reports: its site's (a top set's sites')
// bytes, samples and count times (1 + bias), the profile's total with them.
SiteValues biased(const FlakyAssertion& a, const SiteValues& v) {
  SiteValues b = v;
  if (!reads_values(a)) return b;
  const double scale = 1 + *a.bias;
  const std::size_t count = a.kind == Kind::top ? a.sites.size() : 1;
  for (std::size_t j = 0; j < count; ++j) {
    const std::size_t s = a.sites[j];
    b.total += (scale - 1) * v.bytes[s];
    b.bytes[s] *= scale;
    b.samples[s] *= scale;
    b.count[s] *= scale;
  }
  return b;
}

// The scheme's own estimators a test without a model reads its values from.
struct OwnEstimators {
  std::optional<std::size_t> bytes, count;
};

class FlakyReplications {
 public:
  FlakyReplications(const FlakyTest& test, const Scheme& scheme, const Trace& trace,
                    const std::vector<std::uint32_t>& slot, const std::vector<double>& bytes_weight,
                    const std::vector<double>& count_weight, const OwnEstimators& own)
      : test_(test),
        trace_(trace),
        slot_(slot),
        bytes_weight_(bytes_weight),
        count_weight_(count_weight),
        own_(own),
        replay_(scheme, trace) {}

  FlakyCheck run_block(const StreamKey& first, std::uint64_t count) {
    const std::size_t n = test_.assertions.size();
    FlakyCheck block{count, std::vector<std::uint64_t>(n, 0), std::vector<std::uint64_t>(n, 0), 0};
    const std::size_t sites = test_.sites.size();
    SiteValues v{std::vector<double>(sites), std::vector<double>(sites), std::vector<double>(sites), 0};
    StreamKey key = first;
    for (std::uint64_t r = 0; r < count; ++r, ++key.replication) {
      replay_.replay(key);
      std::fill(v.bytes.begin(), v.bytes.end(), 0.0);
      std::fill(v.samples.begin(), v.samples.end(), 0.0);
      std::fill(v.count.begin(), v.count.end(), 0.0);
      v.total = 0;
      if (test_.model) {
        model_values(v);
      } else {
        own_values(v);
      }
      bool any = false;
      for (std::size_t k = 0; k < test_.assertions.size(); ++k) {
        const FlakyAssertion& a = test_.assertions[k];
        const bool f = fails(a, v);
        block.failures[k] += f;
        any = any || f;
        if (a.bias) block.detections[k] += fails(a, biased(a, v));
      }
      block.any_failure += any;
    }
    return block;
  }

 private:
  // The model's estimates: each sample weighs what the model says (flaky_weight).
  void model_values(SiteValues& v) const {
    const bool per_point = test_.model->kind == ModelKind::poisson_bytes;
    for (const Observation& o : replay_.observations()) {
      const double samples = per_point ? o.samples : 1.0;
      const double bytes = bytes_weight_[o.event] * samples;
      v.total += bytes;
      const std::uint32_t s = slot_[trace_.stack[o.event]];
      if (s == kNoSite) continue;
      v.bytes[s] += bytes;
      v.samples[s] += samples;
      v.count[s] += count_weight_[o.event] * samples;
    }
  }

  // The scheme's own estimates per site (a possibly non-linear estimator finalized per
  // group, Scheme::finalize); the stacks outside the sites are one more group, in the
  // total only. Samples are the sample points.
  void own_values(SiteValues& v) {
    const std::size_t sites = test_.sites.size();
    const std::vector<Observation>& observations = replay_.observations();
    const auto group_of = [&](std::size_t o) -> std::size_t {
      const std::uint32_t s = slot_[trace_.stack[observations[o].event]];
      return s == kNoSite ? sites : s;
    };
    for (std::size_t o = 0; o < observations.size(); ++o) {
      const std::size_t s = group_of(o);
      if (s < sites) v.samples[s] += observations[o].samples;
    }
    if (own_.bytes) {
      replay_.group_estimates(*own_.bytes, sites + 1, group_of, estimates_);
      std::copy(estimates_.begin(), estimates_.begin() + static_cast<std::ptrdiff_t>(sites), v.bytes.begin());
      for (const double e : estimates_) v.total += e;
    }
    if (own_.count) {
      replay_.group_estimates(*own_.count, sites, group_of, estimates_);
      std::copy(estimates_.begin(), estimates_.end(), v.count.begin());
    }
  }

  const FlakyTest& test_;
  const Trace& trace_;
  const std::vector<std::uint32_t>& slot_;
  const std::vector<double>& bytes_weight_;
  const std::vector<double>& count_weight_;
  const OwnEstimators& own_;
  SchemeReplay replay_;
  std::vector<double> estimates_;
};

// The first estimator of `scheme` named `name`, if any.
std::optional<std::size_t> estimator_named(const Scheme& scheme, const std::string& name) {
  const std::vector<EstimatorSpec>& specs = scheme.estimators();
  for (std::size_t e = 0; e < specs.size(); ++e) {
    if (specs[e].name == name) return e;
  }
  return std::nullopt;
}

// Without a model: the scheme's bytes and count estimators, each required by the
// assertions that read it.
OwnEstimators own_estimators(const FlakyTest& test, const Scheme& scheme) {
  OwnEstimators own{estimator_named(scheme, "bytes"), estimator_named(scheme, "count")};
  for (const FlakyAssertion& a : test.assertions) {
    const bool reads_count = a.kind == Kind::within && a.value == FlakyValue::count;
    const bool reads_bytes = (a.kind == Kind::within && a.value == FlakyValue::bytes) || a.kind == Kind::share_within ||
                             a.kind == Kind::above || a.kind == Kind::top;
    const char* missing = reads_count && !own.count ? "count" : reads_bytes && !own.bytes ? "bytes" : nullptr;
    if (missing != nullptr) {
      throw InputError(a.path + ": scheme \"" + test.scheme + "\" has no sampling model and no \"" + missing +
                       "\" estimator to measure this assertion by (allocsim schemes " + test.scheme + ")");
    }
  }
  return own;
}

}  // namespace

void FlakyCheck::merge(const FlakyCheck& block) {
  replications += block.replications;
  failures.resize(block.failures.size());
  detections.resize(block.detections.size());
  for (std::size_t k = 0; k < block.failures.size(); ++k) {
    failures[k] += block.failures[k];
    detections[k] += block.detections[k];
  }
  any_failure += block.any_failure;
}

FlakyCheck check_flaky(const FlakyTest& test, const Scheme& scheme, const Trace& trace, std::uint64_t replications,
                       std::uint64_t seed, unsigned threads) {
  if (replications < 1) throw InputError("--check must be >= 1");
  std::vector<std::uint32_t> slot(trace.stack_count, kNoSite);
  for (std::uint32_t s = 0; s < test.sites.size(); ++s) slot.at(test.sites[s].stack) = s;
  std::vector<double> bytes_weight, count_weight;
  OwnEstimators own;
  if (test.model) {
    bytes_weight.resize(trace.size());
    count_weight.resize(trace.size());
    for (std::size_t i = 0; i < trace.size(); ++i) {
      const auto size = static_cast<double>(scheme.allocated_size(trace, i));
      bytes_weight[i] = flaky_weight(*test.model, FlakyValue::bytes, size);
      count_weight[i] = flaky_weight(*test.model, FlakyValue::count, size);
    }
  } else {
    own = own_estimators(test, scheme);
  }
  const ReplicationRange range{{seed, kFlakyStream, 0}, replications};
  return run_replications<FlakyCheck>(
      range,
      [&] { return std::make_unique<FlakyReplications>(test, scheme, trace, slot, bytes_weight, count_weight, own); },
      {threads, {}, {}});
}

void fill_rates_from_check(FlakyRates& rates, const FlakyCheck& check) {
  const auto r = static_cast<double>(check.replications);
  for (std::size_t k = 0; k < rates.assertions.size(); ++k) {
    if (!rates.assertions[k].power && !rates.assertions[k].power_method.empty()) {  // a bias, no exact power
      rates.assertions[k].power = static_cast<double>(check.detections[k]) / r;
      rates.assertions[k].power_method = "by the engine, " + std::to_string(check.replications) + " replications";
    }
    if (rates.assertions[k].false_failure) continue;
    rates.assertions[k].false_failure = static_cast<double>(check.failures[k]) / r;
    rates.assertions[k].upper_95 = measured_upper_95(check.failures[k], check.replications);
    rates.assertions[k].method = "by the engine, " + std::to_string(check.replications) + " replications";
  }
  if (std::isnan(rates.whole)) {
    rates.whole = static_cast<double>(check.any_failure) / r;
    rates.whole_upper_95 = measured_upper_95(check.any_failure, check.replications);
    rates.whole_method = "by the engine, " + std::to_string(check.replications) + " replications";
  }
}

std::optional<double> measured_upper_95(std::uint64_t failures, std::uint64_t replications) {
  return clopper_pearson(failures, replications, 0.10).upper;  // the two-sided 90% interval's upper end
}

std::string model_text(const FlakyTest& test) {
  if (test.model) return model_description(*test.model);
  return "no sampling model: the scheme's own sampler and estimators, measured by the engine";
}

std::string rate_text(const FlakyTest& test) {
  return test.rate > 0 ? bytes_exact(test.rate) : "its params (no mean interval)";
}

std::string no_model_note(const FlakyTest& test) {
  if (test.model) return "";
  return "no tightest band and no inverse answer: " + test.scheme +
         " has no sampling model (allocsim schemes: family none), and both need the exact distribution";
}

bool exceeds_rate(std::uint64_t failures, std::uint64_t replications, double f) {
  const auto r = static_cast<double>(replications), k = static_cast<double>(failures);
  const double measured = k / r, se = std::sqrt(f * (1 - f) / r);
  if (!(measured > f + 5 * se)) return false;
  if (f <= 0) return true;
  if (f >= 1) return false;
  const boost::math::binomial_distribution<> binomial(r, f);
  return boost::math::cdf(boost::math::complement(binomial, k - 1)) < kCheckFalseAlarm;
}

std::string flaky_rate_text(const std::optional<double>& f) {
  if (!f) return "-";
  return format("%.4g", *f);
}

std::string flaky_measured_text(std::uint64_t failures, std::uint64_t replications, const std::optional<double>& f) {
  const double r = static_cast<double>(replications), m = static_cast<double>(failures) / r;
  std::string text = format("%.4g", m);
  if (f) {
    const double se = std::sqrt(*f * (1 - *f) / r);
    text += " (" + format("%+.1f", se > 0 ? (m - *f) / se : 0.0) + " SE)";
  }
  return text;
}

std::string flaky_table(const FlakyTest& test, const FlakyRates& rates, const std::optional<FlakyCheck>& check) {
  std::string text = test.scheme + (test.rate > 0 ? " at rate " : " at ") + rate_text(test) + " (" + model_text(test) +
                     "); " + std::to_string(test.sites.size()) + (test.sites.size() == 1 ? " site\n" : " sites\n");
  char line[640];
  const bool biased = std::any_of(test.assertions.begin(), test.assertions.end(),
                                  [](const FlakyAssertion& a) { return a.bias.has_value(); });
  std::snprintf(line, sizeof line, "%-4s %-58s %12s%s  %-8s%s\n", "#", "assertion", "P(fail)",
                biased ? "  power (bias)    " : "", "method", check ? "  measured (engine)" : "");
  text += line;
  for (std::size_t k = 0; k < test.assertions.size(); ++k) {
    const FlakyRate& r = rates.assertions[k];
    std::string measured, power;
    if (check) measured = "  " + flaky_measured_text(check->failures[k], check->replications, r.false_failure);
    if (biased) {
      power = test.assertions[k].bias
                  ? flaky_rate_text(r.power) + " (" + format("%+.3g%%", 100 * *test.assertions[k].bias) + ")"
                  : "-";
      power = "  " + power + std::string(power.size() < 16 ? 16 - power.size() : 0, ' ');
    }
    std::snprintf(line, sizeof line, "%-4zu %-58s %12s%s  %-8s%s\n", k + 1, test.assertions[k].text.c_str(),
                  flaky_rate_text(r.false_failure).c_str(), power.c_str(), r.method.c_str(), measured.c_str());
    text += line;
  }
  std::snprintf(line, sizeof line, "%-4s %-58s %12s  %s\n", "all", "whole test (any assertion fails)",
                format("%.4g", rates.whole).c_str(), rates.whole_method.c_str());
  text += line;
  if (check) {
    text += "measured by the engine: " + std::to_string(check->replications) +
            " replications of the scheme's sampler; whole test " +
            (rates.independent ? flaky_measured_text(check->any_failure, check->replications, rates.whole)
                               : flaky_measured_text(check->any_failure, check->replications, std::nullopt) +
                                     " (the computed rate is a union bound: at most it)") +
            "\n";
  }
  text += test.model
              ? "P(fail): the assertion's false-failure probability under the model (an unbiased profiler fails it)\n"
              : "P(fail): the fraction of the engine's replications of the scheme's sampler that fail the "
                "assertion (no model to compute it from)\n";
  if (biased) {
    text += "power: P(the assertion fails) when the profiler reports (1 + bias) times the site's values "
            "(a value bias leaves presence as it is)\n";
  }
  for (std::size_t k = 0; k < test.assertions.size(); ++k) {
    const FlakyRate& r = rates.assertions[k];
    if (!r.tightest) continue;
    const FlakyValue v = test.assertions[k].value;
    text += std::to_string(k + 1) + ": tightest band at " + format("%.3g", test.band_target) + ": [" +
            amount(v, r.tightest->lower) + ", " + amount(v, r.tightest->upper) + "] (its own rate " +
            format("%.3g", r.tightest_rate) + ")\n";
  }
  if (!test.model) text += no_model_note(test) + "\n";
  return text;
}

std::string flaky_json(const FlakyTest& test, const FlakyRates& rates, const std::optional<FlakyCheck>& check) {
  nlohmann::ordered_json assertions = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < test.assertions.size(); ++k) {
    const FlakyRate& r = rates.assertions[k];
    nlohmann::ordered_json item{{"assertion", test.assertions[k].text},
                                {"path", test.assertions[k].path},
                                {"false_failure", r.false_failure ? nlohmann::ordered_json(*r.false_failure) : nullptr},
                                {"method", r.method}};
    if (r.upper_95) item["upper_95"] = *r.upper_95;
    if (test.assertions[k].bias) {
      item["bias"] = *test.assertions[k].bias;
      item["power"] = r.power ? nlohmann::ordered_json(*r.power) : nullptr;
      item["power_method"] = r.power_method;
    }
    if (r.tightest) {
      item["tightest_band"] = {{"false_failure", test.band_target},
                               {"lower", r.tightest->lower},
                               {"upper", r.tightest->upper},
                               {"own_rate", r.tightest_rate}};
    }
    if (check) {
      item["measured"] = static_cast<double>(check->failures[k]) / static_cast<double>(check->replications);
      item["measured_failures"] = check->failures[k];
      if (test.assertions[k].bias) {
        item["measured_power"] = static_cast<double>(check->detections[k]) / static_cast<double>(check->replications);
      }
    }
    assertions.push_back(item);
  }
  nlohmann::ordered_json out{{"scheme", test.scheme},
                             {"rate_bytes", test.rate},
                             {"model", model_text(test)},
                             {"assertions", assertions},
                             {"whole_false_failure", rates.whole},
                             {"whole_method", rates.whole_method},
                             {"independent", rates.independent}};
  if (rates.whole_upper_95) out["whole_upper_95"] = *rates.whole_upper_95;
  if (!test.model) out["unavailable"] = no_model_note(test);
  if (check) {
    out["check"] = {
        {"replications", check->replications},
        {"whole_measured", static_cast<double>(check->any_failure) / static_cast<double>(check->replications)},
        {"bound", "fails when a measured rate is > 5 SE above the computed one and its binomial tail < 1e-6"}};
  }
  return json_text(out, 2) + "\n";
}

FlakyTest scaled_test(const FlakyTest& test, double multiplier) {
  FlakyTest result = test;
  const bool window = test.startup_bytes > 0 && test.start_trace != nullptr && test.start_scheme != nullptr;
  if (window) result.sites = test.sites_before_start;  // the start is taken again below
  for (MarginSite& site : result.sites) {
    site.bytes = 0;
    for (auto& [size, objects] : site.sizes) {
      objects = static_cast<std::uint64_t>(std::llround(static_cast<double>(objects) * multiplier));
      site.bytes += static_cast<double>(size) * static_cast<double>(objects);
    }
  }
  if (window) {
    result.sites_before_start = result.sites;
    for (std::size_t i = 0; i < result.sites.size(); ++i) {
      result.allocations[i] = 0;
      for (const auto& [size, objects] : result.sites[i].sizes) result.allocations[i] += static_cast<double>(objects);
    }
    const auto runs = static_cast<std::uint64_t>(std::max(1.0, std::ceil(multiplier)));
    const UnsampledStart start = unsampled_start(*test.start_trace, *test.start_scheme, test.startup_bytes, runs);
    for (MarginSite& site : result.sites) take_out_start(site, start);
  }
  for (FlakyAssertion& a : result.assertions) {
    if (a.kind != Kind::within) continue;
    a.lower *= multiplier;
    a.upper *= multiplier;
  }
  return result;
}

namespace {

// The whole test's exact rate and the least power among its biased assertions
// (presences aside: a value bias leaves them as they are), or nothing where some
// rate or power needs the engine.
std::optional<Reached> reached(const FlakyTest& test) {
  try {
    const FlakyRates rates = flaky_rates(test);
    if (std::isnan(rates.whole)) return std::nullopt;
    Reached result{rates.whole, std::nullopt};
    for (std::size_t k = 0; k < test.assertions.size(); ++k) {
      const FlakyAssertion& a = test.assertions[k];
      if (!a.bias || !reads_values(a)) continue;
      if (!rates.assertions[k].power) return std::nullopt;
      result.power = std::min(result.power.value_or(1.0), *rates.assertions[k].power);
    }
    return result;
  } catch (const InputError&) {
    return std::nullopt;
  }
}

// Search x from `start` by `step` (x times step each time) for at most `steps` steps to
// the first x that `meets` the targets, then bisect between it and the previous one, at
// geometric midpoints rounded to whole numbers, until they are 1 apart (64 halvings
// cover any double's range).
std::optional<std::pair<double, Reached>> search(const std::function<std::optional<Reached>(double)>& at, double start,
                                                 double step, int steps,
                                                 const std::function<bool(const Reached&)>& meets) {
  double previous = start, x = start;
  std::optional<Reached> r = at(x);
  if (!r) return std::nullopt;
  if (meets(*r)) return std::pair{x, *r};
  for (int i = 0; i < steps; ++i) {
    previous = x;
    x *= step;
    r = at(x);
    if (!r) return std::nullopt;
    if (meets(*r)) break;
  }
  if (!meets(*r)) return std::nullopt;
  double good = x, bad = previous;
  Reached good_reached = *r;
  for (int i = 0; i < 64 && std::abs(good - bad) > 1; ++i) {
    const double middle = std::round(std::sqrt(good * bad));
    if (middle == good || middle == bad) break;
    const std::optional<Reached> m = at(middle);
    if (!m) break;
    if (meets(*m)) {
      good = middle;
      good_reached = *m;
    } else {
      bad = middle;
    }
  }
  return std::pair{good, good_reached};
}

}  // namespace

FlakyAnswer inverse_answer(const FlakyTest& test, double target, const std::function<FlakyTest(double)>& at_rate,
                           std::optional<double> power_target) {
  FlakyAnswer answer;
  answer.target = target;
  answer.power_target = power_target;
  const auto meets = [&](const Reached& r) {
    return r.rate <= target && (!power_target || (r.power && *r.power >= *power_target));
  };
  // The multiplier in whole allocations N of the site with the most (N0).
  double most = 1;
  for (std::size_t i = 0; i < test.sites.size(); ++i) most = std::max(most, site_allocations(test, i));
  const auto by_multiplier = search([&](double n) { return reached(scaled_test(test, n / most)); }, most, 2, 20, meets);
  if (by_multiplier) {
    answer.multiplier = by_multiplier->first / most;
    answer.at_multiplier = by_multiplier->second;
  }
  const auto by_rate = search(
      [&](double t) -> std::optional<Reached> {
        try {
          return reached(at_rate(std::max(1.0, std::floor(t))));
        } catch (const InputError&) {
          return std::nullopt;
        }
      },
      test.rate, 0.5, 40, meets);
  if (by_rate) std::tie(answer.rate, answer.at_rate) = *by_rate;
  return answer;
}

double site_allocations(const FlakyTest& test, std::size_t site) {
  if (site < test.allocations.size()) return test.allocations[site];
  double objects = 0;
  for (const auto& [size, count] : test.sites[site].sizes) objects += static_cast<double>(count);
  return objects;
}

std::vector<double> allocations_at(const FlakyTest& test, double multiplier) {
  const FlakyTest scaled = scaled_test(test, multiplier);
  std::vector<double> allocations;
  for (std::size_t i = 0; i < scaled.sites.size(); ++i) allocations.push_back(site_allocations(scaled, i));
  return allocations;
}

std::string workload_text(const FlakyTest& test, double multiplier, const std::string& details) {
  const std::vector<double> allocations = allocations_at(test, multiplier);
  const std::string times = format("%.4g", multiplier) + "x its ";
  if (test.sites.size() == 1) {
    return "run " + test.sites[0].name + " >= " + format("%.0f", allocations[0]) + " times (" + times +
           format("%.0f", site_allocations(test, 0)) + " allocations; " + details + ")";
  }
  std::string text = "run each site " + times + "allocations: ";
  for (std::size_t i = 0; i < test.sites.size(); ++i) {
    text += (i ? ", " : "") + test.sites[i].name + " >= " + format("%.0f", allocations[i]) + " times";
  }
  return text + " (" + details + ")";
}

std::string reached_text(const Reached& reached) {
  return "rate " + format("%.3g", reached.rate) +
         (reached.power ? "; power >= " + format("%.4g", *reached.power) + " against each stated bias" : "");
}

std::string answer_text(const FlakyTest& test, const FlakyAnswer& answer) {
  std::string text = "to reach a whole-test rate of " + format("%.3g", answer.target) +
                     (answer.power_target ? " at power >= " + format("%.3g", *answer.power_target) : "") + ": ";
  bool reached_all = true;
  if (answer.multiplier) {
    text += workload_text(test, *answer.multiplier, "bands scaled alike; " + reached_text(answer.at_multiplier));
  } else {
    text += "no workload multiplier up to 2^20 reaches it";
    reached_all = false;
  }
  if (answer.rate) {
    text += ", or set the interval <= " + bytes_exact(*answer.rate) + " (" + reached_text(answer.at_rate) + ")";
  } else {
    text += "; no interval down to 1 byte reaches it";
    reached_all = false;
  }
  if (!reached_all) {
    text += answer.power_target
                ? " (a biased value that stays inside its band, scaled alike, keeps the power low at any "
                  "size; an absence fails more often with more samples, a presence with fewer)"
                : " (an absence fails more often with more samples, a presence with fewer)";
  }
  return text + "\n";
}

std::string emit_test(const FlakyTest& test, const FlakyRates& rates, const std::string& language,
                      const std::string& command) {
  if (language != "gtest" && language != "pytest" && language != "go") {
    throw InputError("--emit must be gtest, pytest or go, got " + language);
  }
  const bool cpp = language == "gtest", py = language == "pytest";
  const std::string comment = py ? "# " : "// ";
  const auto quote = [](const std::string& name) { return "\"" + name + "\""; };
  const auto number = [](double x) {  // whole numbers whole, else the shortest text that reads back as x
    if (x == std::floor(x) && std::abs(x) < 1e15) return format("%.0f", x);
    for (int digits = 1;; ++digits) {
      char text[40];
      std::snprintf(text, sizeof text, "%.*g", digits, x);
      if (std::strtod(text, nullptr) == x || digits >= 17) return std::string(text);
    }
  };
  // A condition that holds when the assertion passes.
  const auto condition = [&](const FlakyAssertion& a) -> std::string {
    const std::string site = quote(test.sites[a.sites[0]].name);
    const std::string band_and = py ? " <= " : " && ";
    switch (a.kind) {
      case Kind::within: {
        const std::string v = value_word(a.value) + "(" + site + ")";
        if (py) return number(a.lower) + " <= " + v + " <= " + number(a.upper);
        return v + " >= " + number(a.lower) + " && " + v + " <= " + number(a.upper);
      }
      case Kind::share_within: {
        const std::string v = "share(" + site + ")";
        if (a.upper >= 1) return v + " >= " + number(a.lower);
        if (py) return number(a.lower) + " <= " + v + " <= " + number(a.upper);
        return v + " >= " + number(a.lower) + band_and + v + " <= " + number(a.upper);
      }
      case Kind::present: return "present(" + site + ")";
      case Kind::absent: return (py ? "not " : "!") + std::string("present(") + site + ")";
      case Kind::sites_present: {
        std::string sum;
        for (const std::size_t i : a.sites) {
          const std::string term = py ? "int(present(" + quote(test.sites[i].name) + "))"
                                      : (cpp ? "int(present(" : "b2i(present(") + quote(test.sites[i].name) + "))";
          sum += (sum.empty() ? "" : " + ") + term;
        }
        return sum + " == " + format("%.0f", a.lower);
      }
      case Kind::above: return "bytes(" + site + ") > bytes(" + quote(test.sites[a.sites[1]].name) + ")";
      case Kind::top: {
        std::string set;
        for (const std::size_t i : a.sites) set += (set.empty() ? "" : ", ") + quote(test.sites[i].name);
        if (py) return "top(" + std::to_string(a.sites.size()) + ") == {" + set + "}";
        if (cpp) return "top(" + std::to_string(a.sites.size()) + ") == std::set<std::string>{" + set + "}";
        return "sameSet(top(" + std::to_string(a.sites.size()) + "), []string{" + set + "})";
      }
    }
    return "";
  };
  // A measured rate states its one-sided 95% upper bound beside it.
  const auto bound = [](const std::optional<double>& upper) {
    return upper ? "; <= " + format("%.3g", *upper) + " at 95% confidence, Clopper-Pearson" : std::string();
  };
  std::string text = comment + "Generated by: " + command + "\n" + comment + "Model: " + test.scheme + " at " +
                     rate_text(test) + " (" + model_text(test) + ")\n" + comment +
                     "Whole test false-failure rate: " + format("%.3g", rates.whole) + " (" + rates.whole_method +
                     bound(rates.whole_upper_95) + ")\n";
  std::string indent = "  ";
  if (cpp) text += "TEST(Profiler, Sites) {\n";
  if (py) {
    text += "def test_profiler_sites():\n";
    indent = "    ";
  }
  if (language == "go") {
    text += "func TestProfilerSites(t *testing.T) {\n";
    indent = "\t";
  }
  for (std::size_t k = 0; k < test.assertions.size(); ++k) {
    const FlakyAssertion& a = test.assertions[k];
    const std::string rate =
        rates.assertions[k].false_failure ? format("%.3g", *rates.assertions[k].false_failure) : "?";
    text += indent + comment + a.text + ": false-failure rate " + rate + " (" + rates.assertions[k].method +
            bound(rates.assertions[k].upper_95) + ")";
    if (a.bias) {
      const std::optional<double>& power = rates.assertions[k].power;
      text += "; power against a " + format("%+.3g%%", 100 * *a.bias) + " bias " +
              (power ? format("%.4g", *power) : std::string("?")) + " (" + rates.assertions[k].power_method + ")";
    }
    text += "\n";
    const std::string c = condition(a);
    if (cpp) text += indent + "EXPECT_TRUE(" + c + ");\n";
    if (py) text += indent + "assert " + c + "\n";
    if (language == "go")
      text += indent + "if !(" + c + ") {\n" + indent + "\tt.Errorf(" + quote(a.text) + ")\n" + indent + "}\n";
  }
  if (!py) text += "}\n";
  return text;
}

}  // namespace allocsim::profile
