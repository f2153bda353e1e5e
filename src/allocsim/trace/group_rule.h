#pragma once
// How a synthetic trace groups its events into stacks or types, as read from JSON
// ({"rule": "random", "count": 100, "zipf": 1.1}). Ids are always dense: a rule
// first assigns raw ids, then unused raw ids are dropped and the rest renumbered
// 0..k-1 in increasing raw order, and every id gets a name.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "allocsim/random/random_stream.h"
#include "allocsim/json/json_reader.h"

namespace allocsim {

inline constexpr std::uint32_t kMaxGroupCount = std::uint32_t{1} << 24;

enum class GroupRuleKind {
  constant,     // every event in group 0
  round_robin,  // event i in group i mod count
  random,       // independent draws, P(k) proportional to (k + 1)^-zipf (zipf 0: uniform)
  size_bucket,  // log2 bucket of the requested size: [2^(b-1), 2^b), named "[64,128)"
  component,    // mixture component or sequence position of the size draw
  by_size,      // one group per distinct requested size, in increasing size, named "size=20"
};

struct GroupRule {
  GroupRuleKind kind = GroupRuleKind::constant;
  std::uint32_t count = 1;  // round_robin, random
  double zipf = 0;          // random
};

// Reads "rule" and that rule's keys from `object`, then finishes it.
GroupRule parse_group_rule(JsonObject& object);

struct GroupColumn {
  std::vector<std::uint32_t> ids;  // one per event, dense in 0..names.size()-1
  std::vector<std::string> names;  // indexed by id
};

// Groups events with requested sizes `requested`; `components` holds each event's
// SizeDraw::component and is read only by the component rule. Numbered groups
// are named after their raw id: prefix "stack" gives "stack-3".
GroupColumn assign_groups(const GroupRule& rule, std::span<const std::uint64_t> requested,
                          std::span<const std::uint32_t> components, std::string_view prefix,
                          RandomStream& random);

}  // namespace allocsim
