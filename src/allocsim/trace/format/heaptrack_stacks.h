#pragma once
// The call-path tree of a heaptrack file and the dense stack ids allocsim uses.
//
// Each 't' line adds a node (1-based; node 0 is the empty root) naming a frame and
// its parent, so a stack is read leaf-first by following parents. A node gets a
// dense stack id when an allocation first uses it. Its name lists its frames
// leaf-first, joined by " <- ", at most kMaxNamedFrames of them: function names
// with "(file:line)" where the interpreted file has them, "module+0xoffset" for raw
// files (which carry no symbols) unless an interpreted file of the same run lends its
// names (take_frame_names_from), else the address. Names are made unique with a
// " #2", " #3"... suffix, since different call paths can print alike.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace allocsim {

inline constexpr std::size_t kMaxNamedFrames = 24;

class HeaptrackStacks {
 public:
  HeaptrackStacks();

  // Interpreted files: string table, instruction pointers, then nodes by ip index.
  void add_string(std::string_view text) { strings_.emplace_back(text); }
  std::uint64_t string_count() const { return strings_.size() - 1; }
  struct Frame {
    std::uint64_t function = 0;  // string indices, 0 = unknown
    std::uint64_t file = 0;
    std::uint64_t line = 0;
  };
  // `frames` innermost first: the ip's own frame, then frames inlined into it.
  void add_ip(std::uint64_t address, std::uint64_t module, const std::vector<Frame>& frames);
  std::uint64_t ip_count() const { return ip_texts_.size() - 1; }
  void add_node_by_ip_index(std::uint64_t ip_index, std::uint64_t parent);

  // Raw files: loaded modules, then nodes by address.
  void set_executable(std::string_view path) { executable_ = path; }
  void reset_modules() {
    segments_.clear();
    address_texts_.clear();
  }
  void add_module_segment(std::string_view name, std::uint64_t base, std::uint64_t start, std::uint64_t end);
  bool add_node_by_address(std::uint64_t address, std::uint64_t parent);

  // Raw files with names: frame texts from the tree of an interpreted file of the
  // same run, which heaptrack_interpret writes node for node (its 't' line k has the
  // raw file's parent k). Call before the first node; add_node_by_address then takes
  // node k's text from `interpreted` and returns false where the parents differ or
  // `interpreted` has no node k: the files are not of the same run.
  void take_frame_names_from(HeaptrackStacks&& interpreted);
  bool has_frame_names() const { return !named_nodes_.empty(); }
  std::uint64_t named_node_count() const { return named_nodes_.empty() ? 0 : named_nodes_.size() - 1; }

  std::uint64_t node_count() const { return nodes_.size() - 1; }

  // The dense stack id of node `node` (0..node_count()), assigned on first use.
  std::uint32_t stack_id(std::uint64_t node);
  std::uint32_t stack_count() const { return static_cast<std::uint32_t>(names_.size()); }
  std::vector<std::string> take_names() { return std::move(names_); }

 private:
  struct Node {
    std::uint64_t parent;
    std::uint32_t text;  // index into texts_
  };
  struct Segment {
    std::uint64_t start, end, base;
    std::string module;
  };
  std::uint32_t intern_text(std::string text);
  std::string module_offset_text(std::uint64_t address);
  std::string node_name(std::uint64_t node) const;

  std::vector<std::string> strings_;     // 1-based; [0] is ""
  std::vector<std::uint32_t> ip_texts_;  // 1-based; [0] is the unknown frame
  std::vector<std::string> texts_;       // frame texts
  std::vector<Node> nodes_;              // [0] is the root
  std::vector<Node> named_nodes_;        // an interpreted file's nodes, texts in texts_
  std::string executable_;
  std::vector<Segment> segments_;
  bool segments_sorted_ = true;
  std::unordered_map<std::uint64_t, std::uint32_t> address_texts_;
  std::vector<std::uint32_t> stack_of_node_;
  std::vector<std::string> names_;
  std::unordered_set<std::string> used_names_;
  std::unordered_map<std::string, std::uint32_t> name_suffix_;  // last " #k" given, minus one
};

}  // namespace allocsim
