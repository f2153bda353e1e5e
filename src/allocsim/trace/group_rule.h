#pragma once
// How a synthetic trace groups its events into stacks or types, as read from JSON
// ({"rule": "random", "count": 100, "zipf": 1.1}). Ids are always dense: a rule
// first assigns raw ids, then unused raw ids are dropped and the rest renumbered
// 0..k-1 in increasing raw order, and every id gets a name.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "allocsim/json/json_reader.h"
#include "allocsim/random/random_stream.h"
#include "allocsim/trace/size_distribution.h"

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

// Whether the rule's ids depend on the requested sizes or their mixture components.
bool reads_sizes(const GroupRule& rule);

// Reads "rule" and that rule's keys from `object`, then finishes it.
GroupRule parse_group_rule(JsonObject& object);

struct GroupColumn {
  std::vector<std::uint32_t> ids;  // one per event, dense in 0..names.size()-1
  std::vector<std::string> names;  // indexed by id
};

// A rule's raw ids, before unused ids are dropped, drawn piece by piece in event
// order (the pieces of a trace generated without holding it whole). by_size has
// no raw ids: its ids are the sizes' ranks (all 0 here).
class RawGroupIds {
 public:
  explicit RawGroupIds(const GroupRule& rule);
  // Ids of events first_event, first_event + 1, ...: one per element of `ids`.
  void draw(std::uint64_t first_event, std::span<const std::uint64_t> requested,
            std::span<const std::uint32_t> components, RandomStream& random, std::span<std::uint32_t> ids) const;

 private:
  GroupRule rule_;
  AliasTable zipf_;  // random with zipf > 0
};

// Raw ids that occur (used[id] != 0) renumbered 0..k-1 in increasing order, and
// each kept id's name: prefix-<raw id>, its size bucket or its component.
struct GroupNumbering {
  std::vector<std::uint32_t> dense;  // by raw id
  std::vector<std::string> names;    // by dense id
};
GroupNumbering number_groups(const GroupRule& rule, std::string_view prefix, const std::vector<char>& used);

// The dense ids and names of a whole trace's raw ids: unused ids dropped, or for
// by_size one group per distinct size in increasing size (named "size=20").
GroupColumn number_raw_ids(const GroupRule& rule, std::string_view prefix, std::vector<std::uint32_t> raw,
                           std::span<const std::uint64_t> requested);

// The same numbering for a trace seen piece by piece, which needs every piece
// observed before the first is numbered (which ids occur; for by_size, which
// sizes) unless the rule tells it up front (constant, round_robin).
class PieceGroupNumbering {
 public:
  PieceGroupNumbering(const GroupRule& rule, std::string_view prefix, std::uint64_t events);
  bool needs_observation() const;
  void observe(std::span<const std::uint32_t> raw, std::span<const std::uint64_t> requested);
  void finish_observation();
  std::vector<std::uint32_t> apply(std::span<const std::uint32_t> raw, std::span<const std::uint64_t> requested) const;
  const std::vector<std::string>& names() const { return numbering_.names; }

 private:
  GroupRule rule_;
  std::string prefix_;
  bool finished_ = false;
  std::vector<char> used_;                                         // by raw id
  std::vector<std::uint64_t> sizes_;                               // by_size: distinct, increasing
  std::unordered_map<std::uint64_t, std::uint32_t> rank_of_size_;  // by_size
  GroupNumbering numbering_;
};

}  // namespace allocsim
