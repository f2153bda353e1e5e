#include "allocsim/trace/format/heaptrack_stacks.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace allocsim {

namespace {

constexpr std::uint32_t kNoStack = std::numeric_limits<std::uint32_t>::max();

std::string hex_address(std::uint64_t address) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
  return text;
}

std::string_view base_name(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

HeaptrackStacks::HeaptrackStacks()
    : strings_(1), ip_texts_{0}, texts_{"?"}, nodes_{Node{0, 0}}, stack_of_node_{kNoStack} {}

std::uint32_t HeaptrackStacks::intern_text(std::string text) {
  texts_.push_back(std::move(text));
  return static_cast<std::uint32_t>(texts_.size() - 1);
}

void HeaptrackStacks::add_ip(std::uint64_t address, std::uint64_t module, const std::vector<Frame>& frames) {
  std::string text;
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const Frame& frame = frames[f];
    if (f > 0) text += " <- ";
    if (frame.function != 0) {
      text += strings_[frame.function];
    } else if (f == 0) {
      text += hex_address(address);
      if (module != 0) text.append("@").append(base_name(strings_[module]));
    } else {
      text += "?";
    }
    if (frame.file != 0) {
      text.append(" (").append(base_name(strings_[frame.file]));
      if (frame.line != 0) text.append(":").append(std::to_string(frame.line));
      text.append(")");
    }
  }
  ip_texts_.push_back(intern_text(std::move(text)));
}

void HeaptrackStacks::add_node_by_ip_index(std::uint64_t ip_index, std::uint64_t parent) {
  nodes_.push_back(Node{parent, ip_texts_[ip_index]});
  stack_of_node_.push_back(kNoStack);
}

void HeaptrackStacks::add_module_segment(std::string_view name, std::uint64_t base, std::uint64_t start,
                                         std::uint64_t end) {
  segments_.push_back(Segment{start, end, base, std::string(name == "x" ? executable_ : name)});
  segments_sorted_ = false;
}

std::string HeaptrackStacks::module_offset_text(std::uint64_t address) {
  if (!segments_sorted_) {
    std::sort(segments_.begin(), segments_.end(), [](const Segment& a, const Segment& b) { return a.start < b.start; });
    segments_sorted_ = true;
  }
  auto after = std::upper_bound(segments_.begin(), segments_.end(), address,
                                [](std::uint64_t a, const Segment& s) { return a < s.start; });
  if (after == segments_.begin()) return hex_address(address);
  const Segment& segment = *(after - 1);
  if (address >= segment.end) return hex_address(address);
  return std::string(base_name(segment.module)) + "+" + hex_address(address - segment.base);
}

void HeaptrackStacks::take_frame_names_from(HeaptrackStacks&& interpreted) {
  texts_ = std::move(interpreted.texts_);
  named_nodes_ = std::move(interpreted.nodes_);
}

bool HeaptrackStacks::add_node_by_address(std::uint64_t address, std::uint64_t parent) {
  if (has_frame_names()) {
    const std::size_t node = nodes_.size();
    if (node >= named_nodes_.size() || named_nodes_[node].parent != parent) return false;
    nodes_.push_back(named_nodes_[node]);
    stack_of_node_.push_back(kNoStack);
    return true;
  }
  auto [it, inserted] = address_texts_.try_emplace(address, 0);
  if (inserted) it->second = intern_text(module_offset_text(address));
  nodes_.push_back(Node{parent, it->second});
  stack_of_node_.push_back(kNoStack);
  return true;
}

std::string HeaptrackStacks::node_name(std::uint64_t node) const {
  if (node == 0) return "(no stack)";
  std::string name;
  for (std::size_t frames = 0; node != 0; node = nodes_[node].parent, ++frames) {
    if (frames == kMaxNamedFrames) return name + " <- ...";
    if (frames > 0) name += " <- ";
    name += texts_[nodes_[node].text];
  }
  return name;
}

std::uint32_t HeaptrackStacks::stack_id(std::uint64_t node) {
  std::uint32_t& id = stack_of_node_[node];
  if (id != kNoStack) return id;
  id = static_cast<std::uint32_t>(names_.size());
  const std::string name = node_name(node);
  std::string unique = name;
  for (std::uint32_t& suffix = name_suffix_[name]; !used_names_.insert(unique).second;) {
    unique = name + " #" + std::to_string(++suffix + 1);
  }
  names_.push_back(std::move(unique));
  return id;
}

}  // namespace allocsim
