#include "allocsim/profile/text_profile_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string_view>
#include <utility>

#include "allocsim/profile/legacy_pprof.h"
#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"

namespace allocsim::profile {
namespace {

// Counts beyond this are refused: they are written back as pprof's int64 values.
constexpr unsigned long long kMaxCount = std::numeric_limits<std::int64_t>::max();

struct Counts {
  unsigned long long inuse_objects = 0, inuse_bytes = 0, alloc_objects = 0, alloc_bytes = 0;
};

struct Record {
  std::vector<std::string> frames;
  Counts counts;
  std::string where;   // "path:line" of its counts
  bool mixed = false;  // the record's objects are of several sizes
};

std::string at_line(const std::string& path, std::size_t line) { return path + ":" + std::to_string(line); }

// The lines of a text profile, "\n" or "\r\n" ended (a profile saved on Windows),
// numbered from 1.
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {}

  bool next(std::string_view& line) {
    if (at_ >= text_.size()) return false;
    const std::size_t end = std::min(text_.find('\n', at_), text_.size());
    line = text_.substr(at_, end - at_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    at_ = end + 1;
    ++number_;
    return true;
  }
  std::size_t number() const { return number_; }
  std::string_view rest() const { return at_ < text_.size() ? text_.substr(at_) : std::string_view(); }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
  std::size_t number_ = 0;
};

// Reads "c: b [c: b]": whole numbers, ':' and brackets, spaces or tabs between.
class CountsParser {
 public:
  CountsParser(std::string_view text, const std::string& where) : text_(text), where_(where) {}

  // Parses the counts at the start of the text; returns where the rest begins.
  std::size_t parse(Counts& counts) {
    number(counts.inuse_objects);
    expect(':');
    number(counts.inuse_bytes);
    expect('[');
    number(counts.alloc_objects);
    expect(':');
    number(counts.alloc_bytes);
    expect(']');
    return at_;
  }

 private:
  void skip_blanks() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t')) ++at_;
  }
  [[noreturn]] void fail() const {
    throw InputError(where_ + ": expected \"objects: bytes [objects: bytes]\", got " + printable(text_));
  }
  void expect(char c) {
    skip_blanks();
    if (at_ >= text_.size() || text_[at_] != c) fail();
    ++at_;
  }
  void number(unsigned long long& value) {
    skip_blanks();
    const char* begin = text_.data() + at_;
    const auto [end, error] = std::from_chars(begin, text_.data() + text_.size(), value);
    const std::string_view digits(begin, static_cast<std::size_t>(end - begin));
    if (error == std::errc::result_out_of_range || (error == std::errc() && value > kMaxCount)) {
      throw InputError(where_ + ": the count " + printable(digits) + " is beyond 2^63 - 1");
    }
    if (error != std::errc()) fail();
    at_ += digits.size();
  }

  std::string_view text_;
  const std::string& where_;
  std::size_t at_ = 0;
};

// The frames of a stack, each a hex address; a bare "@" (no frames) is an empty
// stack. `frames_before` frames are held already (kMaxFrames counts them all).
std::vector<std::string> parse_frames(std::string_view text, const std::string& where, std::size_t frames_before,
                                      const std::string& path) {
  std::vector<std::string> frames;
  std::size_t at = 0;
  for (;;) {
    at = text.find_first_not_of(" \t", at);
    if (at == std::string_view::npos) break;
    const std::size_t end = std::min(text.find_first_of(" \t", at), text.size());
    const std::string_view word = text.substr(at, end - at);
    if (word.size() < 3 || word.compare(0, 2, "0x") != 0 ||
        word.find_first_not_of("0123456789abcdefABCDEF", 2) != std::string_view::npos) {
      throw InputError(where + ": " + printable(word) + " is not a hex address");
    }
    frames.emplace_back(word);
    check_profile_size(0, frames_before + frames.size(), path);
    at = end;
  }
  return frames;
}

// The rate after "heap_v2/": a whole number of bytes from 1 to 2^63, the largest that
// jemalloc writes (lg_prof_sample 63) and, as a double, pprof's largest period.
double parse_rate(std::string_view text, const std::string& where) {
  constexpr std::uint64_t kMaxRate = std::uint64_t{1} << 63;
  std::uint64_t rate = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), rate);
  if (error == std::errc::result_out_of_range || (error == std::errc() && rate > kMaxRate)) {
    throw InputError(where + ": the sampling rate " + printable(text) + " is beyond 2^63");
  }
  if (error != std::errc() || end != text.data() + text.size()) {
    throw InputError(where + ": the sampling rate " + printable(text) + " is not a whole number");
  }
  if (rate < 1) throw InputError(where + ": sampling rate " + std::string(text) + ", not a rate >= 1");
  return static_cast<double>(rate);
}

// A record's objects and bytes in `window`, each at most kMaxCount.
std::pair<unsigned long long, unsigned long long> window_values(const Counts& counts, const std::string& window) {
  if (window == "inuse") return {counts.inuse_objects, counts.inuse_bytes};
  return {counts.alloc_objects, counts.alloc_bytes};
}

// Entries from records, scaled as jeprof and pprof do (the header comment), and the
// whole profile as pprof's legacy parser reads it, its memory map included.
void add_entries(HeapProfile& profile, const std::vector<Record>& records, bool samples_exact, bool mixed_sizes,
                 std::string_view memory_map) {
  std::vector<LegacyRecord> legacy;
  legacy.reserve(records.size());
  for (const Record& record : records) {
    const Counts& c = record.counts;
    legacy.push_back({record.frames, c.inuse_objects, c.inuse_bytes, c.alloc_objects, c.alloc_bytes});
  }
  profile.memory_map = executable_ranges(memory_map);
  profile.pprof_message =
      legacy_pprof(legacy, is_unsampled(profile.model) ? 0.0 : profile.model.rate, profile.memory_map, profile.window);
  bool any_alloc = false;
  for (std::size_t r = 0; r < records.size(); ++r) {
    const Record& record = records[r];
    any_alloc = any_alloc || record.counts.alloc_objects > 0;
    const auto [object_count, byte_count] = window_values(record.counts, profile.window);
    if (object_count == 0 || byte_count == 0) continue;
    const auto objects = static_cast<double>(object_count);
    const auto bytes = static_cast<double>(byte_count);
    if (objects > kMaxSamples) {
      throw InputError(record.where + ": a record of " + std::to_string(record.counts.inuse_objects) + " / " +
                       std::to_string(record.counts.alloc_objects) + " objects is beyond 2^52");
    }
    ProfileEntry entry;
    entry.frames = record.frames;
    entry.object_size = bytes / objects;
    entry.mixed_sizes = mixed_sizes || record.mixed;
    entry.samples = objects;
    entry.samples_approximate = !samples_exact;
    // An unsampled profile holds every allocation: its counts are the estimate.
    const double scale = is_unsampled(profile.model) ? 1.0 : 1.0 / -std::expm1(-entry.object_size / profile.model.rate);
    entry.estimate_objects = objects * scale;
    entry.estimate_bytes = bytes * scale;
    entry.source_sample = r;
    check_estimate(entry, record.where);
    profile.entries.push_back(std::move(entry));
  }
  if (profile.window == "alloc" && !any_alloc) {
    throw InputError(profile.path + ": no allocated (bracketed) counts in this profile; read --window inuse");
  }
}

HeapProfile text_profile(const std::string& path, const char* format, const std::string& window, double rate) {
  HeapProfile profile;
  profile.path = path;
  profile.format = format;
  profile.window = window;
  const std::string_view name = format;
  profile.model = rate > 0                 ? model_for_profile_format(format, rate)
                  : name == "go heap text" ? unsampled_model("go")
                                           : unsampled_model("gperftools or jemalloc (unsampled)");
  return profile;
}

// The profile's note when every record's stack is a bare "@": the profiler could not
// unwind (jemalloc#1461: jemalloc on ARM without a working unwinder wrote one
// empty-stack record), so no entry can be told from another.
void note_empty_stacks(HeapProfile& profile, const std::vector<Record>& records) {
  if (records.empty()) return;
  for (const Record& record : records) {
    if (!record.frames.empty()) return;
  }
  profile.note = kAllStacksEmpty;
}

// Calls visit(line, where) for each non-empty line after the header up to the
// "MAPPED_LIBRARIES:" section; `where` is "path:line". Both jemalloc (prof_dump_maps)
// and gperftools (HeapProfileTable::FillOrderedProfile) always write that section
// last, so a file without it was cut short and its records may be incomplete.
template <class Visit>
void for_each_record_line(Lines& lines, const std::string& path, Visit visit) {
  for (std::string_view line; lines.next(line);) {
    if (line.empty()) continue;
    // pprof's legacy parser ends the records at either (legacy_profile.go); google/pprof's
    // cppbench.heap (tcmalloc heapz_v2) has the second.
    if (line == "MAPPED_LIBRARIES:" || line == "--- Memory map: ---") return;
    visit(line, at_line(path, lines.number()));
  }
  throw InputError(at_line(path, lines.number()) +
                   ": the profile ends without its \"MAPPED_LIBRARIES:\" section (truncated?)");
}

}  // namespace

HeapProfile read_jemalloc_heap(const std::string& text, const std::string& path, const std::string& window,
                               bool unbias) {
  Lines lines(text);
  std::string_view line;
  lines.next(line);
  const std::string_view magic = "heap_v2/";
  if (!line.starts_with(magic)) {
    throw InputError(at_line(path, 1) + ": not a jemalloc heap profile (no \"heap_v2/\" header)");
  }
  HeapProfile profile =
      text_profile(path, "jemalloc heap_v2", window, parse_rate(line.substr(magic.size()), at_line(path, 1)));
  profile.samples_note = unbias ? "prof_unbias values: samples approximated by the written objects (prof_do_unbias)"
                                : "raw counts (prof_unbias:false): samples exact";
  std::vector<Record> records;
  std::size_t frames = 0;
  bool in_record = false;
  for_each_record_line(lines, path, [&](std::string_view line, const std::string& where) {
    if (line[0] == '@') {
      check_profile_size(records.size() + 1, frames, path);
      records.push_back({parse_frames(line.substr(1), where, frames, path), {}, where});
      frames += records.back().frames.size();
      in_record = false;
    } else if (line.starts_with("  t*:")) {
      Counts counts;
      CountsParser(line.substr(5), where).parse(counts);
      if (!records.empty() && !in_record) {
        records.back().counts = counts;
        records.back().where = where;
      }
      in_record = !records.empty();
    } else if (!line.starts_with("  t")) {
      throw InputError(where + ": unexpected line " + printable(line));
    }
  });
  note_empty_stacks(profile, records);
  add_entries(profile, records, !unbias, true, lines.rest());
  return profile;
}

namespace {

// The kinds of "heap profile:" text, told apart by the word after the header's "@"
// (pprof's legacy_profile.go parseHeapHeader reads the same words).
enum class HeapText { gperftools_v2, tcmalloc_heapz_v2, unsampled, go_debug1 };

struct HeapHeader {
  HeapText kind;
  const char* format;
  double rate;  // 0 for an unsampled profile
};

HeapHeader parse_heap_header(std::string_view line, const std::string& path) {
  const std::string where = at_line(path, 1);
  const std::size_t at = line.rfind(" @ ");
  if (!line.starts_with("heap profile:") || at == std::string_view::npos) {
    throw InputError(where + ": not a heap profile (no \"heap profile: ... @ KIND\" header); " + kReadableFormats);
  }
  const std::string_view tag = line.substr(at + 3);
  const auto rate_after = [&](std::string_view mark) { return parse_rate(tag.substr(mark.size()), where); };
  if (tag.starts_with("heap_v2/")) return {HeapText::gperftools_v2, "gperftools heap_v2", rate_after("heap_v2/")};
  if (tag.starts_with("heapz_v2/")) {
    return {HeapText::tcmalloc_heapz_v2, "tcmalloc heapz_v2", rate_after("heapz_v2/")};
  }
  if (tag == "heapprofile") return {HeapText::unsampled, "heapprofile (unsampled)", 0};
  // Go's debug=1 text writes 2 x MemProfileRate after "heap/" (runtime/pprof
  // writeHeapInternal); MemProfileRate 1 records every allocation.
  if (tag.starts_with("heap/")) {
    const double rate = rate_after("heap/") / 2;
    return {HeapText::go_debug1, "go heap text", rate <= 1 ? 0 : rate};
  }
  if (tag == "growth" || tag == "growthz") {
    throw InputError(path + ": a heap growth profile (\"@ " + std::string(tag) +
                     "\": the stacks at which the heap grew, each growth written whole, not sampled "
                     "allocations), which has no sampling to put intervals on; " +
                     kReadableFormats);
  }
  throw InputError(where + ": a \"heap profile:\" of kind " + printable(tag) + ", which allocsim does not know; " +
                   kReadableFormats);
}

// A Go debug=1 record's objects mix sizes when its average in use and allocated
// differ or is not whole (Go 1.19 keys records by stack and size; older Go did not).
bool mixed_go_record(const Counts& counts) {
  const auto uneven = [](unsigned long long objects, unsigned long long bytes) {
    return objects > 0 && bytes % objects != 0;
  };
  if (uneven(counts.inuse_objects, counts.inuse_bytes) || uneven(counts.alloc_objects, counts.alloc_bytes)) return true;
  return counts.inuse_objects > 0 && counts.alloc_objects > 0 &&
         counts.inuse_bytes / counts.inuse_objects != counts.alloc_bytes / counts.alloc_objects;
}

// The function of one "#\t0x4d1d8b\tmain.f+0x2b\t/src/main.go:12" line of Go's debug=1
// text (runtime/pprof printStackRecord: one line per frame, inlined ones included,
// the runtime's own leading frames left out), or its address where it names none.
std::string go_frame_name(std::string_view line) {
  line.remove_prefix(2);  // "#\t"
  const std::size_t tab = line.find('\t');
  if (tab == std::string_view::npos) return std::string(line);
  std::string_view name = line.substr(tab + 1);
  name = name.substr(0, name.find('\t'));
  return std::string(name.substr(0, name.rfind("+0x")));
}

// Go debug=1: one "c: b [c: b] @ 0x.." line per record, each followed by "#\t0x.."
// symbol lines, then "# runtime.MemStats" lines; no "MAPPED_LIBRARIES:". Raw counts.
// A record's stack is the functions its "#" lines name, as `go tool pprof` shows them,
// or its addresses where it has no such line.
HeapProfile read_go_heap_text(Lines& lines, HeapProfile profile, const std::string& text, const std::string& path) {
  profile.samples_note = "raw counts (Go debug=1 text): samples exact";
  std::vector<Record> records;
  std::vector<std::vector<std::string>> names;  // per record, from its "#" lines
  std::size_t frames = 0;
  for (std::string_view line; lines.next(line);) {
    if (line.size() > 2 && line.compare(0, 2, "#\t") == 0 && !records.empty()) {
      names.back().push_back(go_frame_name(line));
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    const std::string where = at_line(path, lines.number());
    Counts counts;
    const std::size_t rest = CountsParser(line, where).parse(counts);
    const std::size_t at = line.find('@', rest);
    if (at == std::string_view::npos) throw InputError(where + ": a record with no \"@\" stack");
    check_profile_size(records.size() + 1, frames, path);
    records.push_back({parse_frames(line.substr(at + 1), where, frames, path), counts, where, mixed_go_record(counts)});
    names.emplace_back();
    frames += records.back().frames.size();
  }
  for (std::size_t r = 0; r < records.size(); ++r) {
    if (!names[r].empty()) records[r].frames = std::move(names[r]);
  }
  // Go ends every line with a newline: a last line without one was cut short.
  if (!text.empty() && text.back() != '\n') {
    throw InputError(at_line(path, lines.number()) + ": the profile ends inside a line (truncated?)");
  }
  note_empty_stacks(profile, records);
  add_entries(profile, records, true, false, "");
  return profile;
}

}  // namespace

HeapProfile read_gperftools_heap(const std::string& text, const std::string& path, const std::string& window) {
  Lines lines(text);
  std::string_view line;
  lines.next(line);
  const HeapHeader header = parse_heap_header(line, path);
  HeapProfile profile = text_profile(path, header.format, window, header.rate);
  if (header.kind == HeapText::go_debug1) return read_go_heap_text(lines, std::move(profile), text, path);
  profile.samples_note = header.kind == HeapText::unsampled
                             ? "unsampled (every allocation recorded): counts exact, intervals are points"
                             : "raw counts: samples exact";
  // Records of one stack and one object size are merged; a line of several objects
  // of different sizes (HeapProfilerDump buckets) stays a mixed-size record.
  std::map<std::pair<std::vector<std::string>, double>, Record> merged;
  std::size_t frames = 0;
  bool mixed = false;
  for_each_record_line(lines, path, [&](std::string_view line, const std::string& where) {
    Counts counts;
    const std::size_t rest = CountsParser(line, where).parse(counts);
    const std::size_t at = line.find('@', rest);
    if (at == std::string_view::npos) throw InputError(where + ": a record with no \"@\" stack");
    mixed = mixed || counts.inuse_objects > 1 || counts.alloc_objects > 1;
    const double size = counts.alloc_objects > 0
                            ? static_cast<double>(counts.alloc_bytes) / static_cast<double>(counts.alloc_objects)
                            : 0.0;
    auto [it, added] = merged.try_emplace({parse_frames(line.substr(at + 1), where, frames, path), size});
    if (added) {
      check_profile_size(merged.size(), frames, path);
      it->second.frames = it->first.first;
      frames += it->first.first.size();
    }
    Record& record = it->second;
    record.where = where;
    Counts& sum = record.counts;
    for (auto [total, add] :
         {std::pair{&sum.inuse_objects, counts.inuse_objects}, std::pair{&sum.inuse_bytes, counts.inuse_bytes},
          std::pair{&sum.alloc_objects, counts.alloc_objects}, std::pair{&sum.alloc_bytes, counts.alloc_bytes}}) {
      if (add > kMaxCount - *total) {
        throw InputError(where + ": the counts of this stack and size, summed over its lines, pass 2^63 - 1");
      }
      *total += add;
    }
  });
  std::vector<Record> records;
  records.reserve(merged.size());
  for (auto& [key, record] : merged) records.push_back(std::move(record));
  note_empty_stacks(profile, records);
  // Unsampled counts are exact whatever the sizes a record mixes: its bytes are written.
  add_entries(profile, records, true, mixed && header.kind != HeapText::unsampled, lines.rest());
  return profile;
}

}  // namespace allocsim::profile
