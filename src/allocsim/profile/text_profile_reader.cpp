#include "allocsim/profile/text_profile_reader.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <utility>

#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

struct Counts {
  unsigned long long inuse_objects = 0, inuse_bytes = 0, alloc_objects = 0, alloc_bytes = 0;
};

struct Record {
  std::vector<std::string> frames;
  Counts counts;
};

std::string at_line(const std::string& path, std::size_t line) {
  return path + ":" + std::to_string(line);
}

// "c: b [c: b]" at the start of `text`; returns where the rest begins.
std::size_t parse_counts(const std::string& text, Counts& counts, const std::string& where) {
  int used = -1;
  if (std::sscanf(text.c_str(), " %llu : %llu [ %llu : %llu ]%n", &counts.inuse_objects,
                  &counts.inuse_bytes, &counts.alloc_objects, &counts.alloc_bytes, &used) != 4 ||
      used < 0 || text.find('-') != std::string::npos) {
    throw InputError(where + ": expected \"objects: bytes [objects: bytes]\", got \"" + text + "\"");
  }
  return static_cast<std::size_t>(used);
}

std::vector<std::string> parse_frames(const std::string& text, const std::string& where) {
  std::istringstream words(text);
  std::vector<std::string> frames;
  for (std::string word; words >> word;) {
    if (word.size() < 3 || word.compare(0, 2, "0x") != 0 ||
        word.find_first_not_of("0123456789abcdefABCDEF", 2) != std::string::npos) {
      throw InputError(where + ": \"" + word + "\" is not a hex address");
    }
    frames.push_back(word);
  }
  if (frames.empty()) throw InputError(where + ": a stack with no frames");
  return frames;
}

double parse_rate(const std::string& text, const std::string& where) {
  char* end = nullptr;
  const double rate = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || text.find_first_not_of("0123456789") != std::string::npos) {
    throw InputError(where + ": the sampling rate \"" + text + "\" is not a whole number");
  }
  if (!(rate >= 1)) throw InputError(where + ": sampling rate " + text + ", not a rate >= 1");
  return rate;
}

// The values of a record in `window`, or throws for an unknown window.
std::pair<double, double> window_values(const Counts& counts, const std::string& window) {
  if (window == "inuse") return {static_cast<double>(counts.inuse_objects), static_cast<double>(counts.inuse_bytes)};
  return {static_cast<double>(counts.alloc_objects), static_cast<double>(counts.alloc_bytes)};
}

// Entries from records, scaled as jeprof and pprof do (the header comment).
void add_entries(HeapProfile& profile, const std::vector<Record>& records, bool samples_exact,
                 bool mixed_sizes) {
  bool any_alloc = false;
  for (const Record& record : records) {
    any_alloc = any_alloc || record.counts.alloc_objects > 0;
    const auto [objects, bytes] = window_values(record.counts, profile.window);
    if (objects == 0 || bytes == 0) continue;
    if (objects > kMaxSamples) {
      throw InputError(profile.path + ": a record of " + std::to_string(record.counts.inuse_objects) +
                       " / " + std::to_string(record.counts.alloc_objects) + " objects is beyond 2^52");
    }
    ProfileEntry entry;
    entry.frames = record.frames;
    entry.object_size = bytes / objects;
    entry.mixed_sizes = mixed_sizes;
    entry.samples = objects;
    entry.samples_approximate = !samples_exact;
    const double scale = 1.0 / -std::expm1(-entry.object_size / profile.model.rate);
    entry.estimate_objects = objects * scale;
    entry.estimate_bytes = bytes * scale;
    entry.values = {static_cast<std::int64_t>(objects), static_cast<std::int64_t>(bytes)};
    profile.entries.push_back(std::move(entry));
  }
  if (profile.window == "alloc" && !any_alloc) {
    throw InputError(profile.path + ": no allocated (bracketed) counts in this profile; read --window inuse");
  }
  profile.value_names = {profile.window + "_objects/count", profile.window + "_space/bytes"};
}

// A profile of `format` read by `system`'s model at `rate`, before its records.
HeapProfile text_profile(const std::string& path, const char* format, const std::string& window,
                         double rate, const char* system) {
  HeapProfile profile;
  profile.path = path;
  profile.format = format;
  profile.window = window;
  profile.model = {ModelKind::per_allocation_exponential, rate, system};
  return profile;
}

// Calls visit(line, where) for each non-empty line after the header, up to the
// "MAPPED_LIBRARIES:" section; `where` is "path:line".
template <class Visit>
void for_each_record_line(std::istringstream& lines, const std::string& path, Visit visit) {
  std::size_t number = 1;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.empty()) continue;
    if (line == "MAPPED_LIBRARIES:") break;
    visit(line, at_line(path, number));
  }
}

}  // namespace

HeapProfile read_jemalloc_heap(const std::string& text, const std::string& path,
                               const std::string& window, bool unbias) {
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  const std::string magic = "heap_v2/";
  if (line.compare(0, magic.size(), magic) != 0) {
    throw InputError(at_line(path, 1) + ": not a jemalloc heap profile (no \"heap_v2/\" header)");
  }
  HeapProfile profile = text_profile(path, "jemalloc heap_v2", window,
                                     parse_rate(line.substr(magic.size()), at_line(path, 1)), "jemalloc");
  profile.samples_note = unbias
      ? "prof_unbias values: samples approximated by the written objects (prof_do_unbias)"
      : "raw counts (prof_unbias:false): samples exact";
  std::vector<Record> records;
  bool in_record = false;
  for_each_record_line(lines, path, [&](const std::string& line, const std::string& where) {
    if (line[0] == '@') {
      records.push_back({parse_frames(line.substr(1), where), {}});
      in_record = false;
    } else if (line.compare(0, 5, "  t*:") == 0) {
      Counts counts;
      parse_counts(line.substr(5), counts, where);
      if (!records.empty() && !in_record) records.back().counts = counts;
      in_record = !records.empty();
    } else if (line.compare(0, 3, "  t") != 0) {
      throw InputError(where + ": unexpected line \"" + line + "\"");
    }
  });
  add_entries(profile, records, !unbias, true);
  return profile;
}

HeapProfile read_gperftools_heap(const std::string& text, const std::string& path,
                                 const std::string& window) {
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  const std::string magic = "heap profile:";
  const std::size_t rate_at = line.find("@ heap_v2/");
  if (line.compare(0, magic.size(), magic) != 0 || rate_at == std::string::npos) {
    throw InputError(at_line(path, 1) +
                     ": not a gperftools heap profile (no \"heap profile: ... @ heap_v2/RATE\" header)");
  }
  HeapProfile profile = text_profile(path, "gperftools heap_v2", window,
                                     parse_rate(line.substr(rate_at + 10), at_line(path, 1)), "gperftools");
  profile.samples_note = "raw counts: samples exact";
  // Records of one stack and one object size are merged; a line of several objects
  // of different sizes (HeapProfilerDump buckets) stays a mixed-size record.
  std::map<std::pair<std::vector<std::string>, double>, Counts> merged;
  bool mixed = false;
  for_each_record_line(lines, path, [&](const std::string& line, const std::string& where) {
    Counts counts;
    const std::size_t rest = parse_counts(line, counts, where);
    const std::size_t at = line.find('@', rest);
    if (at == std::string::npos) throw InputError(where + ": a record with no \"@\" stack");
    mixed = mixed || counts.inuse_objects > 1 || counts.alloc_objects > 1;
    const double size = counts.alloc_objects > 0
        ? static_cast<double>(counts.alloc_bytes) / static_cast<double>(counts.alloc_objects)
        : 0.0;
    Counts& sum = merged[{parse_frames(line.substr(at + 1), where), size}];
    sum.inuse_objects += counts.inuse_objects;
    sum.inuse_bytes += counts.inuse_bytes;
    sum.alloc_objects += counts.alloc_objects;
    sum.alloc_bytes += counts.alloc_bytes;
  });
  std::vector<Record> records;
  for (const auto& [key, counts] : merged) records.push_back({key.first, counts});
  add_entries(profile, records, true, mixed);
  return profile;
}

}  // namespace allocsim::profile
