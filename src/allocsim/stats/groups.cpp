#include "allocsim/stats/groups.h"

#include <array>

namespace allocsim {

const char* to_string(GroupKind kind) {
  switch (kind) {
    case GroupKind::total: return "total";
    case GroupKind::stack: return "stack";
    case GroupKind::type: return "type";
    case GroupKind::size_bucket: return "size_bucket";
  }
  return "?";
}

std::optional<GroupKind> parse_group_kind(std::string_view name) {
  for (GroupKind k : {GroupKind::total, GroupKind::stack, GroupKind::type, GroupKind::size_bucket}) {
    if (name == to_string(k)) return k;
  }
  return std::nullopt;
}

namespace {

std::vector<std::string> id_labels(const std::vector<std::string>& names, std::uint32_t count, const char* prefix) {
  std::vector<std::string> labels(count);
  for (std::uint32_t g = 0; g < count; ++g) {
    labels[g] = g < names.size() && !names[g].empty() ? names[g] : prefix + std::to_string(g);
  }
  return labels;
}

}  // namespace

GroupIndex::GroupIndex(const Trace& trace, std::span<const GroupKind> kinds) {
  for (GroupKind kind : kinds) {
    KindIndex index;
    index.kind = kind;
    switch (kind) {
      case GroupKind::total: index.labels = {"all"}; break;
      case GroupKind::stack:
        index.ids = trace.stack.data();
        index.count = trace.stack_count;
        index.labels = id_labels(trace.stack_names, trace.stack_count, "stack-");
        break;
      case GroupKind::type:
        index.ids = trace.type.data();
        index.count = trace.type_count;
        index.labels = id_labels(trace.type_names, trace.type_count, "type-");
        break;
      case GroupKind::size_bucket: {
        // Only the buckets that occur get a group, in size order.
        std::array<std::uint32_t, 65> dense{};
        for (std::uint64_t s : trace.requested) dense[size_bucket_of(s)] = 1;
        index.count = 0;
        for (std::uint32_t b = 0; b < dense.size(); ++b) {
          if (dense[b] == 0) continue;
          dense[b] = index.count++;
          index.labels.push_back(size_bucket_label(b));
        }
        index.owned_ids.resize(trace.size());
        for (std::size_t i = 0; i < trace.size(); ++i) {
          index.owned_ids[i] = dense[size_bucket_of(trace.requested[i])];
        }
        index.ids = index.owned_ids.data();
        if (index.count == 0) {  // an empty trace still has one (empty) group
          index.count = 1;
          index.labels = {"[0,1)"};
        }
        break;
      }
    }
    index.first_slot = slot_count_;
    slot_count_ += index.count;
    kinds_.push_back(std::move(index));
  }
}

}  // namespace allocsim
