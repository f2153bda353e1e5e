#pragma once
// Groups a profile is read by: the whole trace, each stack, each type, each log2
// size bucket. Every kind's groups occupy a contiguous range of "slots", so the
// engine keeps all per-group state in flat arrays.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "allocsim/trace/size_bucket.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

enum class GroupKind { total, stack, type, size_bucket };
const char* to_string(GroupKind kind);
std::optional<GroupKind> parse_group_kind(std::string_view name);

class GroupIndex {
 public:
  GroupIndex(const Trace& trace, std::span<const GroupKind> kinds);

  std::size_t kind_count() const { return kinds_.size(); }
  GroupKind kind(std::size_t k) const { return kinds_[k].kind; }
  std::uint32_t group_count(std::size_t k) const { return kinds_[k].count; }
  std::uint32_t first_slot(std::size_t k) const { return kinds_[k].first_slot; }
  std::uint32_t slot_count() const { return slot_count_; }
  const std::string& label(std::size_t k, std::uint32_t g) const { return kinds_[k].labels[g]; }

  // The slot of event i's group of kind k.
  std::uint32_t slot_of(std::size_t k, std::size_t i) const {
    const KindIndex& kind = kinds_[k];
    return kind.first_slot + (kind.ids == nullptr ? 0 : kind.ids[i]);
  }

 private:
  struct KindIndex {
    GroupKind kind;
    const std::uint32_t* ids = nullptr;  // per-event group id; nullptr = everything is group 0
    std::vector<std::uint32_t> owned_ids;
    std::uint32_t count = 1;
    std::uint32_t first_slot = 0;
    std::vector<std::string> labels;
  };
  std::vector<KindIndex> kinds_;
  std::uint32_t slot_count_ = 0;
};

}  // namespace allocsim
