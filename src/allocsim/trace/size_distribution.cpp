#include "allocsim/trace/size_distribution.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <type_traits>

#include "allocsim/json/byte_size.h"
#include "allocsim/random/random_transforms.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/printable.h"

namespace allocsim {
namespace {

// ---- Parsing ----

std::string too_large(const JsonValue& value) {
  return "must be <= 2^48 (" + std::to_string(kMaxSyntheticSize) + "), got " + json_text(value.raw());
}

std::uint64_t size_value(const JsonValue& value) {
  const std::uint64_t size = byte_count(value);
  if (size > kMaxSyntheticSize) value.fail(too_large(value));
  return size;
}

std::uint64_t positive_size(const JsonValue& value) {
  if (byte_count(value) == 0) value.fail("must be >= 1, got 0");
  return size_value(value);
}

// A real-valued size parameter (median, scale), at most 2^48.
double size_parameter(const JsonValue& value, double x) {
  if (x > static_cast<double>(kMaxSyntheticSize)) value.fail(too_large(value));
  return x;
}

void require_at_least(const JsonValue& upper, std::uint64_t upper_value, std::string_view lower_name,
                      std::uint64_t lower_value) {
  if (upper_value < lower_value) {
    upper.fail("must be >= " + std::string(lower_name) + " (" + std::to_string(lower_value) + "), got " +
               std::to_string(upper_value));
  }
}

// Each weight is already finite and >= 0; together they need a finite positive total.
void check_weight_sum(const std::vector<double>& weights, const JsonValue& where) {
  double total = 0;
  for (const double w : weights) total += w;
  if (!(total > 0)) where.fail("weights must not all be 0");
  if (!std::isfinite(total)) where.fail("weights must have a finite sum");
}

std::vector<std::uint64_t> sizes_of(const JsonValue& list) {
  std::vector<std::uint64_t> sizes;
  for (const JsonValue& item : list.non_empty_array()) sizes.push_back(size_value(item));
  return sizes;
}

ConstantSize parse_constant(JsonObject& object) { return {size_value(object.at("size"))}; }

SequenceSizes parse_sequence(JsonObject& object) { return {sizes_of(object.at("sizes"))}; }

UniformSize parse_uniform(JsonObject& object) {
  UniformSize uniform;
  uniform.min = size_value(object.at("min"));
  const JsonValue max = object.at("max");
  uniform.max = size_value(max);
  require_at_least(max, uniform.max, "min", uniform.min);
  return uniform;
}

LogUniformSize parse_log_uniform(JsonObject& object) {
  LogUniformSize log_uniform;
  log_uniform.min = positive_size(object.at("min"));
  const JsonValue max = object.at("max");
  log_uniform.max = size_value(max);
  require_at_least(max, log_uniform.max, "min", log_uniform.min);
  return log_uniform;
}

LognormalSize parse_lognormal(JsonObject& object) {
  LognormalSize lognormal;
  const JsonValue median = object.at("median");
  lognormal.median = size_parameter(median, median.positive_number());
  lognormal.sigma = object.at("sigma").positive_number();
  if (auto min = object.maybe("min")) lognormal.min = positive_size(*min);
  if (auto max = object.maybe("max")) {
    lognormal.max = size_value(*max);
    require_at_least(*max, lognormal.max, "min", lognormal.min);
  }
  return lognormal;
}

ParetoSize parse_pareto(JsonObject& object) {
  ParetoSize pareto;
  const JsonValue scale = object.at("scale");
  pareto.scale = size_parameter(scale, scale.number());
  if (!(pareto.scale >= 1)) scale.fail("must be >= 1, got " + json_text(scale.raw()));
  pareto.shape = object.at("shape").positive_number();
  if (auto max = object.maybe("max")) {
    pareto.max = size_value(*max);
    if (static_cast<double>(pareto.max) < pareto.scale) {
      max->fail("must be >= scale (" + json_text(scale.raw()) + "), got " + json_text(max->raw()));
    }
  }
  return pareto;
}

HistogramSizes parse_size_weights(JsonObject& object) {
  HistogramSizes histogram;
  const JsonValue sizes = object.at("sizes");
  const JsonValue weights = object.at("weights");
  histogram.sizes = sizes_of(sizes);
  for (const JsonValue& w : weights.array()) histogram.weights.push_back(w.non_negative_number());
  if (histogram.weights.size() != histogram.sizes.size()) {
    weights.fail("must have one weight per size (" + std::to_string(histogram.sizes.size()) + "), got " +
                 std::to_string(histogram.weights.size()));
  }
  check_weight_sum(histogram.weights, weights);
  return histogram;
}

BucketSizes parse_buckets(JsonObject& object) {
  BucketSizes buckets;
  const JsonValue list = object.at("buckets");
  for (const JsonValue& bucket : list.non_empty_array()) {
    const std::vector<JsonValue> fields = bucket.array();
    if (fields.size() != 3) bucket.fail("expected [lo, hi, weight], got " + json_text(bucket.raw()));
    const SizeRange range{size_value(fields[0]), size_value(fields[1])};
    require_at_least(fields[1], range.hi, "lo", range.lo);
    buckets.ranges.push_back(range);
    buckets.weights.push_back(fields[2].non_negative_number());
  }
  check_weight_sum(buckets.weights, list);
  return buckets;
}

SizeDistribution parse_histogram(JsonObject& object) {
  const bool has_buckets = object.has("buckets");
  if (has_buckets && (object.has("sizes") || object.has("weights"))) {
    object.fail("give either \"sizes\" with \"weights\" or \"buckets\", not both");
  }
  if (has_buckets) return {parse_buckets(object)};
  if (!object.has("sizes")) object.fail("missing required key \"sizes\" (or \"buckets\")");
  return {parse_size_weights(object)};
}

MixtureSizes parse_mixture(JsonObject& object) {
  MixtureSizes mixture;
  const JsonValue list = object.at("components");
  for (const JsonValue& item : list.non_empty_array()) {
    JsonObject component = item.object();
    mixture.weights.push_back(component.at("weight").non_negative_number());
    mixture.components.push_back(parse_size_distribution(component));
  }
  check_weight_sum(mixture.weights, list);
  return mixture;
}

struct FamilyParser {
  std::string_view name;
  SizeDistribution (*parse)(JsonObject&);
};

constexpr FamilyParser kFamilies[] = {
    {"constant", [](JsonObject& o) { return SizeDistribution{parse_constant(o)}; }},
    {"sequence", [](JsonObject& o) { return SizeDistribution{parse_sequence(o)}; }},
    {"uniform", [](JsonObject& o) { return SizeDistribution{parse_uniform(o)}; }},
    {"log_uniform", [](JsonObject& o) { return SizeDistribution{parse_log_uniform(o)}; }},
    {"lognormal", [](JsonObject& o) { return SizeDistribution{parse_lognormal(o)}; }},
    {"pareto", [](JsonObject& o) { return SizeDistribution{parse_pareto(o)}; }},
    {"histogram", parse_histogram},
    {"mixture", [](JsonObject& o) { return SizeDistribution{parse_mixture(o)}; }},
};

// ---- Sampling ----

// x (already integral, or infinite) as a size in [lo, hi].
std::uint64_t clamp_size(double x, std::uint64_t lo, std::uint64_t hi) {
  if (!(x > static_cast<double>(lo))) return lo;
  if (x >= static_cast<double>(hi)) return hi;
  return static_cast<std::uint64_t>(x);
}

double round_half_up(double x) { return std::floor(x + 0.5); }

struct ConstantNode {
  std::uint64_t size;
  SizeDraw draw(RandomStream&) const { return {size, 0}; }
};

struct SequenceNode {
  std::vector<std::uint64_t> sizes;
  std::uint32_t next = 0;
  SizeDraw draw(RandomStream&) {
    const std::uint32_t position = next;
    next = (next + 1 == sizes.size()) ? 0 : next + 1;
    return {sizes[position], position};
  }
};

struct UniformNode {
  std::uint64_t min, max;
  SizeDraw draw(RandomStream& random) const { return {uniform_between(random, min, max), 0}; }
};

struct LogUniformNode {
  double log_min;   // ln(min)
  double log_span;  // ln((max + 1) / min)
  std::uint64_t min, max;
  SizeDraw draw(RandomStream& random) const {
    // 1 - u is uniform on [0, 1); floor keeps P(k) = ln((k+1)/k) / log_span.
    const double x = std::exp(log_min + (1.0 - random.next_uniform()) * log_span);
    return {clamp_size(std::floor(x), min, max), 0};
  }
};

struct LognormalNode {
  double log_median, sigma;
  std::uint64_t min, max;
  SizeDraw draw(RandomStream& random) const {
    const double u1 = random.next_uniform();
    const double z = normal_from_uniforms(u1, random.next_uniform());
    return {clamp_size(round_half_up(std::exp(log_median + sigma * z)), min, max), 0};
  }
};

struct ParetoNode {
  double scale, shape;
  double kept_mass;  // P(X <= max) before truncation: 1 - (scale / max)^shape
  std::uint64_t max;
  SizeDraw draw(RandomStream& random) const {
    // Inverse of the truncated CDF F(x) / F(max), F(x) = 1 - (scale / x)^shape:
    // x = scale * (1 - u F(max))^(-1/shape); u = 1 gives max.
    const double x = scale * std::exp(-std::log1p(-random.next_uniform() * kept_mass) / shape);
    return {clamp_size(round_half_up(x), 1, max), 0};
  }
};

struct HistogramNode {
  std::vector<std::uint64_t> sizes;
  AliasTable choice;
  SizeDraw draw(RandomStream& random) const { return {sizes[choice.draw(random)], 0}; }
};

struct BucketNode {
  std::vector<SizeRange> ranges;
  AliasTable choice;
  SizeDraw draw(RandomStream& random) const {
    const SizeRange& range = ranges[choice.draw(random)];
    return {uniform_between(random, range.lo, range.hi), 0};
  }
};

struct MixtureNode {
  std::vector<std::size_t> children;  // node indices, one per component
  AliasTable choice;
};

ConstantNode prepare(const ConstantSize& c) { return {c.size}; }
SequenceNode prepare(const SequenceSizes& s) { return {s.sizes}; }
UniformNode prepare(const UniformSize& u) { return {u.min, u.max}; }
LogUniformNode prepare(const LogUniformSize& l) {
  const double min = static_cast<double>(l.min);
  return {std::log(min), std::log((static_cast<double>(l.max) + 1.0) / min), l.min, l.max};
}
LognormalNode prepare(const LognormalSize& l) { return {std::log(l.median), l.sigma, l.min, l.max}; }
ParetoNode prepare(const ParetoSize& p) {
  const double kept = -std::expm1(p.shape * std::log(p.scale / static_cast<double>(p.max)));
  return {p.scale, p.shape, kept, p.max};
}
HistogramNode prepare(const HistogramSizes& h) { return {h.sizes, AliasTable(h.weights)}; }
BucketNode prepare(const BucketSizes& b) { return {b.ranges, AliasTable(b.weights)}; }

}  // namespace

SizeDistribution parse_size_distribution(JsonObject& object) {
  const JsonValue name_value = object.at("distribution");
  const std::string name = name_value.string();
  for (const FamilyParser& family : kFamilies) {
    if (family.name != name) continue;
    SizeDistribution distribution = family.parse(object);
    object.finish();
    return distribution;
  }
  std::string known;
  for (const FamilyParser& family : kFamilies) {
    if (!known.empty()) known += ", ";
    known += family.name;
  }
  name_value.fail("unknown distribution " + printable(name) + " (known: " + known + ")");
}

struct SizeSampler::Node {
  std::variant<ConstantNode, SequenceNode, UniformNode, LogUniformNode, LognormalNode, ParetoNode, HistogramNode,
               BucketNode, MixtureNode>
      family;
};

SizeSampler::SizeSampler(const SizeDistribution& distribution) { add_node(distribution); }
SizeSampler::SizeSampler(const SizeSampler&) = default;
SizeSampler::SizeSampler(SizeSampler&&) noexcept = default;
SizeSampler& SizeSampler::operator=(SizeSampler&&) noexcept = default;
SizeSampler::~SizeSampler() = default;

std::size_t SizeSampler::add_node(const SizeDistribution& distribution) {
  const std::size_t index = nodes_.size();
  nodes_.emplace_back();
  if (const auto* mixture = std::get_if<MixtureSizes>(&distribution.family)) {
    MixtureNode node{{}, AliasTable(mixture->weights)};
    for (const SizeDistribution& component : mixture->components) {
      node.children.push_back(add_node(component));
    }
    nodes_[index].family = std::move(node);
  } else {
    std::visit(
        [&](const auto& family) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(family)>, MixtureSizes>) {
            nodes_[index].family = prepare(family);
          }
        },
        distribution.family);
  }
  return index;
}

bool SizeSampler::has_positions() const {
  return std::any_of(nodes_.begin(), nodes_.end(),
                     [](const Node& node) { return std::holds_alternative<SequenceNode>(node.family); });
}

SizeDraw SizeSampler::draw_node(std::size_t index, RandomStream& random) {
  return std::visit(
      [&](auto& node) -> SizeDraw {
        if constexpr (std::is_same_v<std::decay_t<decltype(node)>, MixtureNode>) {
          const std::uint32_t component = node.choice.draw(random);
          return {draw_node(node.children[component], random).size, component};
        } else {
          return node.draw(random);
        }
      },
      nodes_[index].family);
}

std::uint64_t uniform_below(RandomStream& random, std::uint64_t n) {
  __extension__ typedef unsigned __int128 Wide;
  // The high word of u * n is uniform on {0..n-1} once the few low words below
  // 2^64 mod n are rejected.
  Wide product = static_cast<Wide>(random.next_u64()) * n;
  if (static_cast<std::uint64_t>(product) < n) {
    const std::uint64_t threshold = (0 - n) % n;
    while (static_cast<std::uint64_t>(product) < threshold) {
      product = static_cast<Wide>(random.next_u64()) * n;
    }
  }
  return static_cast<std::uint64_t>(product >> 64);
}

std::uint64_t uniform_between(RandomStream& random, std::uint64_t lo, std::uint64_t hi) {
  const std::uint64_t span = hi - lo;
  if (span == ~std::uint64_t{0}) return random.next_u64();
  return lo + uniform_below(random, span + 1);
}

AliasTable::AliasTable(std::span<const double> weights) : keep_(weights.size()), alias_(weights.size()) {
  // Vose's construction: scale weights to mean 1, then pair each column below 1
  // with one above 1, which fills the gap and keeps the rest.
  double total = 0;
  for (const double w : weights) total += w;
  const double scale = static_cast<double>(weights.size()) / total;
  std::vector<std::uint32_t> small, large;
  for (std::uint32_t j = 0; j < weights.size(); ++j) {
    keep_[j] = weights[j] * scale;
    alias_[j] = j;
    (keep_[j] < 1.0 ? small : large).push_back(j);
  }
  while (!small.empty() && !large.empty()) {
    const std::uint32_t s = small.back(), l = large.back();
    small.pop_back();
    alias_[s] = l;
    keep_[l] = (keep_[l] + keep_[s]) - 1.0;
    if (keep_[l] < 1.0) {
      large.pop_back();
      small.push_back(l);
    }
  }
  // What is left is 1 up to rounding.
  for (const std::uint32_t j : small) keep_[j] = 1.0;
  for (const std::uint32_t j : large) keep_[j] = 1.0;
}

std::uint32_t AliasTable::draw(RandomStream& random) const {
  const auto column = static_cast<std::uint32_t>(uniform_below(random, keep_.size()));
  // u is in (0, 1], so a column with keep 0 always hands over.
  return random.next_uniform() <= keep_[column] ? column : alias_[column];
}

}  // namespace allocsim
