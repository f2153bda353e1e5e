#include "allocsim/trace/group_rule.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "allocsim/trace/size_bucket.h"
#include "allocsim/trace/size_distribution.h"

namespace allocsim {
namespace {

struct RuleName {
  std::string_view name;
  GroupRuleKind kind;
};

constexpr RuleName kRules[] = {
    {"constant", GroupRuleKind::constant},   {"round_robin", GroupRuleKind::round_robin},
    {"random", GroupRuleKind::random},       {"size_bucket", GroupRuleKind::size_bucket},
    {"component", GroupRuleKind::component}, {"by_size", GroupRuleKind::by_size},
};

GroupRuleKind rule_kind(const JsonValue& value) {
  const std::string name = value.string();
  std::string known;
  for (const RuleName& rule : kRules) {
    if (rule.name == name) return rule.kind;
    known += (known.empty() ? "" : ", ") + std::string(rule.name);
  }
  value.fail("unknown rule \"" + name + "\" (known: " + known + ")");
}

std::uint32_t group_count(const JsonValue& value) {
  const std::uint64_t count = value.positive_uint();
  if (count > kMaxGroupCount) {
    value.fail("must be <= " + std::to_string(kMaxGroupCount) + ", got " + value.raw().dump());
  }
  return static_cast<std::uint32_t>(count);
}

std::vector<std::uint32_t> round_robin_ids(std::size_t n, std::uint32_t count) {
  std::vector<std::uint32_t> ids(n);
  std::uint32_t next = 0;
  for (std::uint32_t& id : ids) {
    id = next;
    next = (next + 1 == count) ? 0 : next + 1;
  }
  return ids;
}

std::vector<std::uint32_t> random_ids(std::size_t n, const GroupRule& rule, RandomStream& random) {
  std::vector<std::uint32_t> ids(n);
  if (rule.zipf == 0) {
    for (std::uint32_t& id : ids)
      id = static_cast<std::uint32_t>(uniform_below(random, rule.count));
    return ids;
  }
  std::vector<double> weights(rule.count);
  for (std::uint32_t k = 0; k < rule.count; ++k) weights[k] = std::pow(k + 1.0, -rule.zipf);
  const AliasTable choice(weights);
  for (std::uint32_t& id : ids) id = choice.draw(random);
  return ids;
}

std::vector<std::uint32_t> size_bucket_ids(std::span<const std::uint64_t> requested) {
  std::vector<std::uint32_t> ids(requested.size());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = size_bucket_of(requested[i]);
  return ids;
}

// Drops unused raw ids, renumbers the rest 0..k-1 in increasing raw order, and
// names each kept id by its raw id.
template <class NameOf>
GroupColumn compact(std::vector<std::uint32_t> raw, NameOf name_of) {
  const std::uint32_t largest = raw.empty() ? 0 : *std::max_element(raw.begin(), raw.end());
  std::vector<char> used(std::size_t{largest} + 1, 0);
  for (const std::uint32_t id : raw) used[id] = 1;
  std::vector<std::uint32_t> dense(used.size());
  GroupColumn column;
  for (std::uint32_t id = 0; id <= largest; ++id) {
    if (!used[id]) continue;
    dense[id] = static_cast<std::uint32_t>(column.names.size());
    column.names.push_back(name_of(id));
  }
  for (std::uint32_t& id : raw) id = dense[id];
  column.ids = std::move(raw);
  return column;
}

// by_size: dense ids in increasing size. While sizes repeat, numbering them by
// first appearance in a hash map is fastest (0.1 s for 10^7 events); with many
// distinct sizes, sorting (size, event) pairs is (2 s instead of 13 s for 10^7).
constexpr std::size_t kMaxHashedSizes = std::size_t{1} << 18;

std::string size_name(std::uint64_t size) { return "size=" + std::to_string(size); }

// Empty names when there are more than kMaxHashedSizes distinct sizes.
GroupColumn by_size_hashed(std::span<const std::uint64_t> requested) {
  std::unordered_map<std::uint64_t, std::uint32_t> first_seen;
  std::vector<std::uint64_t> distinct;  // indexed by order of first appearance
  GroupColumn column;
  column.ids.resize(requested.size());
  for (std::size_t i = 0; i < requested.size(); ++i) {
    const auto [entry, inserted] =
        first_seen.try_emplace(requested[i], static_cast<std::uint32_t>(distinct.size()));
    if (inserted) {
      if (distinct.size() == kMaxHashedSizes) return {};
      distinct.push_back(requested[i]);
    }
    column.ids[i] = entry->second;
  }
  std::vector<std::uint32_t> by_size(distinct.size());
  std::iota(by_size.begin(), by_size.end(), 0u);
  std::sort(by_size.begin(), by_size.end(),
            [&](std::uint32_t a, std::uint32_t b) { return distinct[a] < distinct[b]; });
  std::vector<std::uint32_t> rank(distinct.size());
  for (std::uint32_t r = 0; r < by_size.size(); ++r) {
    rank[by_size[r]] = r;
    column.names.push_back(size_name(distinct[by_size[r]]));
  }
  for (std::uint32_t& id : column.ids) id = rank[id];
  return column;
}

GroupColumn by_size_sorted(std::span<const std::uint64_t> requested) {
  struct SizedEvent {
    std::uint64_t size;
    std::uint32_t event;  // < 2^31 allocations
  };
  std::vector<SizedEvent> events(requested.size());
  for (std::size_t i = 0; i < requested.size(); ++i) {
    events[i] = {requested[i], static_cast<std::uint32_t>(i)};
  }
  std::sort(events.begin(), events.end(),
            [](const SizedEvent& a, const SizedEvent& b) { return a.size < b.size; });
  GroupColumn column;
  column.ids.resize(requested.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (i == 0 || events[i].size != events[i - 1].size) {
      column.names.push_back(size_name(events[i].size));
    }
    column.ids[events[i].event] = static_cast<std::uint32_t>(column.names.size() - 1);
  }
  return column;
}

GroupColumn by_size_groups(std::span<const std::uint64_t> requested) {
  GroupColumn column = by_size_hashed(requested);
  return column.names.empty() ? by_size_sorted(requested) : column;
}

}  // namespace

GroupRule parse_group_rule(JsonObject& object) {
  GroupRule rule;
  rule.kind = rule_kind(object.at("rule"));
  if (rule.kind == GroupRuleKind::round_robin || rule.kind == GroupRuleKind::random) {
    rule.count = group_count(object.at("count"));
  }
  if (rule.kind == GroupRuleKind::random) {
    if (auto zipf = object.maybe("zipf")) rule.zipf = zipf->non_negative_number();
  }
  object.finish();
  return rule;
}

GroupColumn assign_groups(const GroupRule& rule, std::span<const std::uint64_t> requested,
                          std::span<const std::uint32_t> components, std::string_view prefix,
                          RandomStream& random) {
  const auto numbered = [prefix](std::uint32_t id) {
    return std::string(prefix) + "-" + std::to_string(id);
  };
  const std::size_t n = requested.size();
  switch (rule.kind) {
    case GroupRuleKind::constant:
      return compact(std::vector<std::uint32_t>(n, 0), numbered);
    case GroupRuleKind::round_robin:
      return compact(round_robin_ids(n, rule.count), numbered);
    case GroupRuleKind::random:
      return compact(random_ids(n, rule, random), numbered);
    case GroupRuleKind::size_bucket:
      return compact(size_bucket_ids(requested), size_bucket_label);
    case GroupRuleKind::component:
      return compact(std::vector<std::uint32_t>(components.begin(), components.end()),
                     [](std::uint32_t id) { return "component-" + std::to_string(id); });
    case GroupRuleKind::by_size:
      return by_size_groups(requested);
  }
  return {};
}

}  // namespace allocsim
