#pragma once
// A sampled heap profile as read from a real profiler's file: one entry per record
// (a stack, and the object size where the format keeps one), with the values the
// file holds, the samples behind them and the estimate the system's own tool shows.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/profile/memory_map.h"
#include "allocsim/profile/sampling_model.h"

namespace allocsim::profile {

struct ProfileEntry {
  std::vector<std::string> frames;  // leaf first: function names or hex addresses
  // Size of each object in the record; with mixed_sizes, the record's average size
  // (its bytes over its objects), which the system's own scaling also uses.
  double object_size = 0;
  bool mixed_sizes = false;
  double samples = 0;                // sampled objects behind the record
  bool samples_approximate = false;  // recovered from rounded, scaled values
  double estimate_objects = 0;       // as the system's own tool reports them
  double estimate_bytes = 0;
  std::size_t source_sample = 0;     // the record's sample in HeapProfile::pprof_message
  std::size_t allocator_frames = 0;  // leading frames inside the allocator (symbols.h)
};

// Sample counts beyond this (2^52) are refused: not every whole number above it is
// a double, and no real profile holds that many.
inline constexpr double kMaxSamples = 4503599627370496.0;

// Limits that keep the work and memory of reading and reporting bounded by what a
// real profile needs (a large Go or jemalloc profile holds some 10^4 records of a
// few dozen frames); past them a file is refused with the limit named.
//   kMaxRecords  records with samples in the window (2^20): each costs an interval,
//                a draw per resample and a place in every ranking.
//   kMaxFrames   frames over all records (2^23), as strings in memory.
inline constexpr std::size_t kMaxRecords = std::size_t{1} << 20;
inline constexpr std::size_t kMaxFrames = std::size_t{1} << 23;

// Label shown for a record whose stack has no frames (jemalloc and gperftools write
// a bare "@" when unwinding failed; pprof a sample without locations).
inline constexpr const char* kNoFrames = "(no frames)";

// The note of a profile whose every record has an empty stack.
inline constexpr const char* kAllStacksEmpty =
    "every record has an empty stack: the profiler could not unwind (as in jemalloc#1461), so the numbers "
    "belong to no call site";

// What allocsim reads, closing each refusal of a file it does not.
inline constexpr const char* kReadableFormats =
    "allocsim reads heap profiles: pprof (gzip'd or not: Go heap/allocs), Go debug=1 text (heap/2R), "
    "jemalloc heap_v2, gperftools heap_v2 and heapprofile, tcmalloc heapz_v2";

struct HeapProfile {
  std::string path;
  std::string format;  // "pprof", "jemalloc heap_v2", "gperftools heap_v2"
  std::string window;  // "inuse" or "alloc"
  SamplingModel model;
  std::vector<ProfileEntry> entries;  // records with at least one sample
  std::string samples_note;           // how the samples were recovered
  std::string note;                   // one line on what the numbers cannot say, or empty
  std::string symbols_note;           // where the frames' names came from (symbols.h), or empty
  // Everything the file holds as uncompressed profile.proto, every record of every
  // window (a text profile as pprof's legacy parser converts it: legacy_pprof.h), for
  // the annotated copy; empty for a profile built in memory.
  std::string pprof_message;
  // A text profile's executable mappings, mapping i + 1 of pprof_message (memory_map.h).
  std::vector<MappedRange> memory_map;
};

// Estimates beyond 2^62 objects (or of bytes that are not finite) are refused: no
// heap holds that many, and a resample draws its count of objects as an int64.
inline constexpr double kMaxEstimateObjects = 0x1p62;

// InputError naming `where` (the record) when its estimate passes the bound above.
void check_estimate(const ProfileEntry& entry, const std::string& where);

// InputError naming `path` when `records` or `frames` passes kMaxRecords or kMaxFrames.
void check_profile_size(std::size_t records, std::size_t frames, const std::string& path);

}  // namespace allocsim::profile
