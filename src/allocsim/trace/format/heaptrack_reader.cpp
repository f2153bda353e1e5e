#include "allocsim/trace/format/heaptrack_reader.h"

#include <charconv>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "allocsim/trace/format/heaptrack_line.h"
#include "allocsim/trace/format/heaptrack_stacks.h"
#include "allocsim/trace/format/line_reader.h"
#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"

namespace allocsim {

const char* to_string(HeaptrackKind kind) { return kind == HeaptrackKind::raw ? "raw" : "interpreted"; }
const char* to_string(FreePairing pairing) { return pairing == FreePairing::lifo ? "lifo" : "fifo"; }
const char* to_string(HeaptrackClock clock) { return clock == HeaptrackClock::events ? "events" : "milliseconds"; }

namespace {

constexpr std::uint64_t kNewestFileVersion = 3;

// The live allocations of one allocation info, oldest first.
class LiveList {
 public:
  std::size_t size() const { return items_.size() - head_; }
  void push(std::uint64_t event) { items_.push_back(event); }
  std::uint64_t take(FreePairing pairing) {
    std::uint64_t event;
    if (pairing == FreePairing::lifo) {
      event = items_.back();
      items_.pop_back();
    } else {
      event = items_[head_++];
    }
    if (head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    } else if (head_ >= 64 && head_ * 2 >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    return event;
  }

 private:
  std::vector<std::uint64_t> items_;
  std::size_t head_ = 0;
};

class HeaptrackParser {
 public:
  HeaptrackParser(const std::string& path, const HeaptrackOptions& options) : reader_(path), options_(options) {}

  HeaptrackImport parse() {
    if (!options_.names_from.empty()) take_names_file();
    std::string_view line;
    while (reader_.next(line)) handle(line);
    if (reader_.line_number() == 0) throw InputError(reader_.path() + ": empty file, not a heaptrack file");
    return finish();
  }

 private:
  void take_names_file() {
    HeaptrackParser names(options_.names_from, HeaptrackOptions{});
    names.parse();
    if (names.kind_ != HeaptrackKind::interpreted) {
      throw InputError(options_.names_from + ": a raw heaptrack file, so it has no names to give; names come from the "
                                             "interpreted file of the same run (heaptrack_interpret's output)");
    }
    stacks_.take_frame_names_from(std::move(names.stacks_));
  }

  std::string not_the_same_run() const {
    return "its call-path tree is not the one " + options_.names_from + " has (node " +
           std::to_string(stacks_.node_count() + 1) + "): the two files are not of the same run";
  }

  void handle(std::string_view line) {
    if (reader_.line_number() == 1 && !line.starts_with("v ")) {
      reader_.fail("not a heaptrack file: the first line is not a 'v' version line");
    }
    if (line.empty()) return;
    if (line[0] == '#') return summary(line);
    if (line.size() > 1 && line[1] != ' ') reader_.fail("malformed line: expected '<type> <fields>'");
    HeaptrackLine fields(line.size() > 2 ? line.substr(2) : std::string_view(), reader_);
    switch (line[0]) {
      case 'v': version(fields); break;
      case 'X': result_.stats.command = fields.rest(); break;
      case 'I':
      case 'R':
      case 'S': break;
      case 'A': result_.stats.attached = true; break;
      case 'c': stamp(fields); break;
      case 'x': executable(fields); break;
      case 'm': module(fields); break;
      case 's': string(fields); break;
      case 'i': instruction_pointer(fields); break;
      case 't': node(fields); break;
      case 'a': allocation_info(fields); break;
      case '+': allocation(fields); break;
      case '-': deallocation(fields); break;
      default: reader_.fail("unknown line type " + printable(line.substr(0, 1)));
    }
  }

  void version(HeaptrackLine& fields) {
    if (reader_.line_number() != 1) reader_.fail("a second 'v' line");
    const std::uint64_t heaptrack = fields.hex();
    const std::uint64_t file_version = fields.hex();
    fields.expect_end();
    if (file_version > kNewestFileVersion) {
      reader_.fail("heaptrack file format version " + std::to_string(file_version) +
                   " is newer than this reader understands (" + std::to_string(kNewestFileVersion) + ")");
    }
    if (file_version == 0) reader_.fail("heaptrack file format version 0 (heaptrack < 1.0) is not supported");
    result_.stats.file_version = file_version;
    result_.stats.heaptrack_version = std::to_string(heaptrack >> 16) + "." + std::to_string(heaptrack >> 8 & 0xff) +
                                      "." + std::to_string(heaptrack & 0xff);
    sized_strings_ = file_version >= 3;
  }

  // heaptrack_interpret ends its output with "# strings: N" and "# ips: M", the
  // numbers of 's' and 'i' lines it wrote (~AccumulatedTraceData in heaptrack's
  // src/interpret/heaptrack_interpret.cpp): the only mark that the file is whole.
  void summary(std::string_view line) {
    for (auto [prefix, count] : {std::pair{std::string_view("# strings: "), &summary_strings_},
                                 std::pair{std::string_view("# ips: "), &summary_ips_}}) {
      if (!line.starts_with(prefix)) continue;
      line.remove_prefix(prefix.size());
      std::uint64_t value = 0;
      const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), value);
      if (ec != std::errc() || end != line.data() + line.size()) reader_.fail("malformed end-of-file summary");
      *count = value;
    }
  }

  void require_whole_interpreted_file() const {
    if (!summary_strings_ || !summary_ips_) {
      reader_.fail("truncated: no '# strings' and '# ips' lines, which heaptrack writes last in an "
                   "interpreted file (the recording was cut)");
    }
    if (*summary_strings_ != stacks_.string_count() || *summary_ips_ != stacks_.ip_count()) {
      reader_.fail("truncated or altered: the file ends by counting " + std::to_string(*summary_strings_) +
                   " strings and " + std::to_string(*summary_ips_) + " instruction pointers, but has " +
                   std::to_string(stacks_.string_count()) + " and " + std::to_string(stacks_.ip_count()));
    }
  }

  // The kind is told by the first line only one kind has.
  void require(HeaptrackKind kind, char type) {
    if (!kind_) {
      kind_ = kind;
      if (kind == HeaptrackKind::interpreted && !options_.names_from.empty()) {
        reader_.fail("an interpreted file names its own frames; names from another file are for a raw file");
      }
      if (kind == HeaptrackKind::interpreted && early_free_line_ != 0) {
        throw InputError(reader_.path() + ": line " + std::to_string(early_free_line_) +
                         ": free before any allocation");
      }
    } else if (*kind_ != kind) {
      reader_.fail(std::string("'") + type + "' line does not belong in " +
                   (*kind_ == HeaptrackKind::raw ? "a raw" : "an interpreted") + " heaptrack file");
    }
  }

  void stamp(HeaptrackLine& fields) {
    const std::uint64_t ms = fields.hex();
    fields.expect_end();
    if (ms < result_.stats.last_millisecond) reader_.fail("time stamp goes backwards");
    result_.stats.last_millisecond = ms;
  }

  void executable(HeaptrackLine& fields) {
    require(HeaptrackKind::raw, 'x');
    stacks_.set_executable(fields.string(sized_strings_));
    fields.expect_end();
  }

  void module(HeaptrackLine& fields) {
    require(HeaptrackKind::raw, 'm');
    const std::string_view name = fields.string(sized_strings_);
    if (name == "-") {
      fields.expect_end();
      stacks_.reset_modules();
      return;
    }
    const std::uint64_t base = fields.hex();
    while (!fields.at_end()) {
      const std::uint64_t offset = fields.hex();
      const std::uint64_t length = fields.hex();
      stacks_.add_module_segment(name, base, base + offset, base + offset + length);
    }
  }

  void string(HeaptrackLine& fields) {
    require(HeaptrackKind::interpreted, 's');
    stacks_.add_string(sized_strings_ ? fields.string(true) : fields.rest());
    fields.expect_end();
  }

  std::uint64_t string_index(HeaptrackLine& fields) {
    const std::uint64_t index = fields.hex();
    if (index > stacks_.string_count()) {
      reader_.fail("string " + std::to_string(index) + " is not defined (" + std::to_string(stacks_.string_count()) +
                   " so far)");
    }
    return index;
  }

  void instruction_pointer(HeaptrackLine& fields) {
    require(HeaptrackKind::interpreted, 'i');
    const std::uint64_t address = fields.hex();
    const std::uint64_t module = string_index(fields);
    std::vector<HeaptrackStacks::Frame> frames(1);
    if (!fields.at_end()) frames[0].function = string_index(fields);
    if (!fields.at_end()) {
      frames[0].file = string_index(fields);
      frames[0].line = fields.hex();
    }
    while (!fields.at_end()) {
      HeaptrackStacks::Frame& inlined = frames.emplace_back();
      inlined.function = string_index(fields);
      inlined.file = string_index(fields);
      inlined.line = fields.hex();
    }
    stacks_.add_ip(address, module, frames);
  }

  std::uint64_t node_index(HeaptrackLine& fields) {
    const std::uint64_t node = fields.hex();
    if (node > stacks_.node_count()) {
      reader_.fail("trace " + std::to_string(node) + " is not defined (" + std::to_string(stacks_.node_count()) +
                   " so far)");
    }
    return node;
  }

  void node(HeaptrackLine& fields) {
    if (!kind_) reader_.fail("'t' line before any module ('m') or instruction pointer ('i') line");
    if (*kind_ == HeaptrackKind::raw) {
      const std::uint64_t address = fields.hex();
      if (!stacks_.add_node_by_address(address, node_index(fields))) reader_.fail(not_the_same_run());
    } else {
      const std::uint64_t ip = fields.hex();
      if (ip > stacks_.ip_count()) {
        reader_.fail("instruction pointer " + std::to_string(ip) + " is not defined (" +
                     std::to_string(stacks_.ip_count()) + " so far)");
      }
      stacks_.add_node_by_ip_index(ip, node_index(fields));
    }
    fields.expect_end();
  }

  void allocation_info(HeaptrackLine& fields) {
    require(HeaptrackKind::interpreted, 'a');
    const std::uint64_t size = fields.hex();
    const std::uint64_t node = node_index(fields);
    fields.expect_end();
    infos_.push_back(Info{size, node});
    live_by_info_.emplace_back();
  }

  std::uint64_t info_index(HeaptrackLine& fields) {
    const std::uint64_t info = fields.hex();
    if (info >= infos_.size()) {
      reader_.fail("allocation info " + std::to_string(info) + " is not defined (" + std::to_string(infos_.size()) +
                   " so far)");
    }
    return info;
  }

  void allocation(HeaptrackLine& fields) {
    require(fields.remaining_fields() == 3 ? HeaptrackKind::raw : HeaptrackKind::interpreted, '+');
    if (*kind_ == HeaptrackKind::raw) {
      const std::uint64_t size = fields.hex();
      const std::uint64_t node = node_index(fields);
      const std::uint64_t pointer = fields.hex();
      fields.expect_end();
      // A pointer still live lost its free (heaptrack misses realloc(p, 0)): it stays live.
      live_by_pointer_.insert_or_assign(pointer, add_event(size, node));
    } else {
      const std::uint64_t info = info_index(fields);
      fields.expect_end();
      live_by_info_[info].push(add_event(infos_[info].size, infos_[info].node));
    }
  }

  void deallocation(HeaptrackLine& fields) {
    if (!kind_) {    // only a raw file can free before allocating: memory from before tracking
      fields.hex();  // a pointer, or in a broken interpreted file an info index
      fields.expect_end();
      if (early_free_line_ == 0) early_free_line_ = reader_.line_number();
      ++result_.stats.unmatched_frees;
      return;
    }
    if (*kind_ == HeaptrackKind::raw) {
      const std::uint64_t pointer = fields.hex();
      fields.expect_end();
      const auto it = live_by_pointer_.find(pointer);
      if (it == live_by_pointer_.end()) {
        ++result_.stats.unmatched_frees;
        return;
      }
      free_event(it->second);
      live_by_pointer_.erase(it);
    } else {
      const std::uint64_t info = info_index(fields);
      fields.expect_end();
      LiveList& live = live_by_info_[info];
      if (live.size() == 0) {
        reader_.fail("free of allocation info " + std::to_string(info) + ", which has no live allocation");
      }
      if (live.size() > 1) ++result_.stats.ambiguous_frees;
      free_event(live.take(options_.pairing));
    }
  }

  std::uint64_t now() const {
    return options_.clock == HeaptrackClock::events ? ticks_ : result_.stats.last_millisecond;
  }

  std::uint64_t add_event(std::uint64_t size, std::uint64_t node) {
    if (__builtin_add_overflow(total_bytes_, size, &total_bytes_)) {
      reader_.fail("the total allocated bytes overflow 64 bits");
    }
    Trace& trace = result_.trace;
    const std::uint64_t event = trace.requested.size();
    trace.requested.push_back(size);
    trace.stack.push_back(stacks_.stack_id(node));
    trace.time.push_back(now());
    trace.free_time.push_back(kNeverFreed);
    ++ticks_;
    ++result_.stats.allocations;
    return event;
  }

  void free_event(std::uint64_t event) {
    result_.trace.free_time.mutable_data()[event] = now();
    ++ticks_;
    ++result_.stats.frees;
  }

  HeaptrackImport finish() {
    result_.stats.kind = kind_.value_or(HeaptrackKind::interpreted);
    if (result_.stats.kind == HeaptrackKind::interpreted) require_whole_interpreted_file();
    if (stacks_.has_frame_names() && stacks_.node_count() != stacks_.named_node_count()) {
      throw InputError(reader_.path() + ": " + not_the_same_run());
    }
    Trace& trace = result_.trace;
    const std::size_t n = trace.requested.size();
    trace.thread.assign(n, 0);
    trace.type.assign(n, 0);
    trace.thread_count = 1;
    trace.type_count = 1;
    trace.stack_count = std::max<std::uint32_t>(1, stacks_.stack_count());
    trace.stack_names = stacks_.take_names();
    trace.validate(reader_.path());
    return std::move(result_);
  }

  struct Info {
    std::uint64_t size;
    std::uint64_t node;
  };

  LineReader reader_;
  HeaptrackOptions options_;
  HeaptrackImport result_;
  HeaptrackStacks stacks_;
  std::optional<HeaptrackKind> kind_;
  bool sized_strings_ = true;
  std::uint64_t early_free_line_ = 0;
  std::optional<std::uint64_t> summary_strings_, summary_ips_;
  std::vector<Info> infos_;
  std::vector<LiveList> live_by_info_;
  std::unordered_map<std::uint64_t, std::uint64_t> live_by_pointer_;
  std::uint64_t ticks_ = 0;
  std::uint64_t total_bytes_ = 0;
};

}  // namespace

HeaptrackImport read_heaptrack(const std::string& path, const HeaptrackOptions& options) {
  return HeaptrackParser(path, options).parse();
}

}  // namespace allocsim
