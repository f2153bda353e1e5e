#include "allocsim/trace/group_rule.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <iterator>
#include <numeric>
#include <unordered_map>

#include "allocsim/trace/size_bucket.h"
#include "allocsim/trace/size_distribution.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/printable.h"

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
  value.fail("unknown rule " + printable(name) + " (known: " + known + ")");
}

std::uint32_t group_count(const JsonValue& value) {
  const std::uint64_t count = value.positive_uint();
  if (count > kMaxGroupCount) {
    value.fail("must be <= " + std::to_string(kMaxGroupCount) + ", got " + json_text(value.raw()));
  }
  return static_cast<std::uint32_t>(count);
}

// Drops unused raw ids, renumbers the rest 0..k-1 in increasing raw order.
GroupColumn compact(const GroupRule& rule, std::string_view prefix, std::vector<std::uint32_t> raw) {
  const std::uint32_t largest = raw.empty() ? 0 : *std::max_element(raw.begin(), raw.end());
  std::vector<char> used(std::size_t{largest} + 1, 0);
  for (const std::uint32_t id : raw) used[id] = 1;
  GroupNumbering numbering = number_groups(rule, prefix, used);
  for (std::uint32_t& id : raw) id = numbering.dense[id];
  return {std::move(raw), std::move(numbering.names)};
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
    const auto [entry, inserted] = first_seen.try_emplace(requested[i], static_cast<std::uint32_t>(distinct.size()));
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
  std::sort(events.begin(), events.end(), [](const SizedEvent& a, const SizedEvent& b) { return a.size < b.size; });
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

bool reads_sizes(const GroupRule& rule) {
  return rule.kind == GroupRuleKind::size_bucket || rule.kind == GroupRuleKind::component ||
         rule.kind == GroupRuleKind::by_size;
}

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

RawGroupIds::RawGroupIds(const GroupRule& rule) : rule_(rule) {
  if (rule.kind == GroupRuleKind::random && rule.zipf != 0) {
    std::vector<double> weights(rule.count);
    for (std::uint32_t k = 0; k < rule.count; ++k) weights[k] = std::pow(k + 1.0, -rule.zipf);
    zipf_ = AliasTable(weights);
  }
}

void RawGroupIds::draw(std::uint64_t first_event, std::span<const std::uint64_t> requested,
                       std::span<const std::uint32_t> components, RandomStream& random,
                       std::span<std::uint32_t> ids) const {
  switch (rule_.kind) {
    case GroupRuleKind::constant:
    case GroupRuleKind::by_size: std::fill(ids.begin(), ids.end(), 0u); return;
    case GroupRuleKind::round_robin:
      for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::uint32_t>((first_event + i) % rule_.count);
      return;
    case GroupRuleKind::random:
      if (rule_.zipf == 0) {
        for (std::uint32_t& id : ids) id = static_cast<std::uint32_t>(uniform_below(random, rule_.count));
      } else {
        for (std::uint32_t& id : ids) id = zipf_.draw(random);
      }
      return;
    case GroupRuleKind::size_bucket:
      for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = size_bucket_of(requested[i]);
      return;
    case GroupRuleKind::component: std::copy(components.begin(), components.end(), ids.begin()); return;
  }
}

GroupNumbering number_groups(const GroupRule& rule, std::string_view prefix, const std::vector<char>& used) {
  GroupNumbering numbering;
  numbering.dense.resize(used.size());
  for (std::uint32_t id = 0; id < used.size(); ++id) {
    if (!used[id]) continue;
    numbering.dense[id] = static_cast<std::uint32_t>(numbering.names.size());
    switch (rule.kind) {
      case GroupRuleKind::size_bucket: numbering.names.push_back(size_bucket_label(id)); break;
      case GroupRuleKind::component: numbering.names.push_back("component-" + std::to_string(id)); break;
      default: numbering.names.push_back(std::string(prefix) + "-" + std::to_string(id)); break;
    }
  }
  return numbering;
}

GroupColumn number_raw_ids(const GroupRule& rule, std::string_view prefix, std::vector<std::uint32_t> raw,
                           std::span<const std::uint64_t> requested) {
  if (rule.kind == GroupRuleKind::by_size) return by_size_groups(requested);
  return compact(rule, prefix, std::move(raw));
}

PieceGroupNumbering::PieceGroupNumbering(const GroupRule& rule, std::string_view prefix, std::uint64_t events)
    : rule_(rule), prefix_(prefix) {
  if (rule.kind == GroupRuleKind::constant || rule.kind == GroupRuleKind::round_robin) {
    // Known without looking: ids 0 .. min(count, events) - 1 all occur.
    const std::uint64_t count = rule.kind == GroupRuleKind::constant ? 1 : rule.count;
    used_.assign(std::min(count, events), 1);
    finish_observation();
  }
}

bool PieceGroupNumbering::needs_observation() const { return !finished_; }

void PieceGroupNumbering::observe(std::span<const std::uint32_t> raw, std::span<const std::uint64_t> requested) {
  if (rule_.kind == GroupRuleKind::by_size) {
    std::vector<std::uint64_t> piece(requested.begin(), requested.end());
    std::sort(piece.begin(), piece.end());
    piece.erase(std::unique(piece.begin(), piece.end()), piece.end());
    std::vector<std::uint64_t> merged;
    std::set_union(sizes_.begin(), sizes_.end(), piece.begin(), piece.end(), std::back_inserter(merged));
    sizes_ = std::move(merged);
    return;
  }
  for (const std::uint32_t id : raw) {
    if (id >= used_.size()) used_.resize(std::size_t{id} + 1, 0);
    used_[id] = 1;
  }
}

void PieceGroupNumbering::finish_observation() {
  finished_ = true;
  if (rule_.kind != GroupRuleKind::by_size) {
    numbering_ = number_groups(rule_, prefix_, used_);
    return;
  }
  for (std::uint32_t rank = 0; rank < sizes_.size(); ++rank) {
    rank_of_size_.emplace(sizes_[rank], rank);
    numbering_.names.push_back(size_name(sizes_[rank]));
  }
}

std::vector<std::uint32_t> PieceGroupNumbering::apply(std::span<const std::uint32_t> raw,
                                                      std::span<const std::uint64_t> requested) const {
  std::vector<std::uint32_t> ids(raw.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    ids[i] = rule_.kind == GroupRuleKind::by_size ? rank_of_size_.at(requested[i]) : numbering_.dense[raw[i]];
  }
  return ids;
}

}  // namespace allocsim
