#pragma once
// allocsim's own binary trace format (".ast"): the Trace columns as they are in
// memory, so a file is memory-mapped and used in place, its pages shared by every
// process that maps it. All integers little-endian.
//
// Version 2 (written):
//   offset  size  field
//        0     8  magic 89 41 53 54 0d 0a 1a 0a ("\x89AST\r\n\x1a\n")
//        8     8  checksum: XXH64 (seed 0) of the header bytes 16..255 followed by
//                 the XXH64 of each section's bytes, in section order (u64 each)
//       16     4  format version (2)
//       20     4  header size (256)
//       24     8  events n
//       32     4  thread count        36  4  stack count        40  4  type count
//       44     4  flags: bit 0 = the allocated column is present
//       48   192  12 sections, each (offset u64, length u64), in this order:
//                 thread u16[n], thread wide, requested u32[n], requested wide,
//                 allocated u32[n] (or length 0), allocated wide, stack u32[n],
//                 type u32[n], time u64[n], free_time u64[n], stack names, type names
//      256        sections, each starting at a multiple of 64 bytes, zero padding;
//                 the file ends where its last section ends
// A narrow column stores each value below its largest code (2^16 - 1 for threads,
// 2^32 - 1 for sizes) as is; that code means "in the wide table": (event u64,
// value u64) pairs in increasing event order, one per escaped event.
//
// Version 1 (read, copied into memory): magic, XXH64 of bytes 16..end, version 1,
// header size 192, the same counts and flags, then 9 sections: thread u32[n],
// requested u64[n], allocated u64[n], stack u32[n], type u32[n], time u64[n],
// free_time u64[n], stack names, type names.
//
// A names section is u32 count (0 = no names, else the stack or type count), then
// per name u32 length and its bytes. free_time 2^64-1 means live at the end.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "allocsim/trace/format/xxhash64.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

inline constexpr unsigned char kNativeTraceMagic[8] = {0x89, 'A', 'S', 'T', '\r', '\n', 0x1a, '\n'};
inline constexpr std::uint32_t kNativeTraceVersion = 2;

// Writes a native trace whose events arrive in pieces: the columns go straight to
// their place in the file, so a trace larger than memory is written with memory
// for one piece. Only the wide values and the names are held until finish().
class NativeTraceWriter {
 public:
  using WriteAt = std::function<void(std::uint64_t offset, std::string_view bytes)>;
  // `write_at` puts bytes at an offset of the output; `events` and whether sizes
  // allocated by the allocator are present are fixed up front.
  NativeTraceWriter(WriteAt write_at, std::uint64_t events, bool has_allocated);
  // The next events: every column of `piece` but the names and counts.
  void append(const Trace& piece);
  // The counts and names of `ids` (its columns are not read), the wide tables and
  // the header. Every event must have been appended.
  void finish(const Trace& ids);

 private:
  static constexpr std::size_t kSections = 12;
  void put_section(std::size_t section, std::uint64_t at, std::string_view bytes);
  template <class Values>
  void put_column(std::size_t section, const Values& column);
  template <class Narrow>
  void put_narrow(std::size_t section, const Narrow& column, std::vector<WideValue>& wide);

  WriteAt write_at_;
  std::uint64_t events_;
  bool has_allocated_;
  std::uint64_t written_ = 0;
  std::uint64_t offsets_[kSections] = {};
  std::uint64_t lengths_[kSections] = {};
  Xxhash64 hashes_[kSections];
  std::vector<WideValue> thread_wide_, requested_wide_, allocated_wide_;
};

// The file's bytes.
std::string encode_native_trace(const Trace& trace);
// Written atomically (temp file + rename).
void write_native_trace(const Trace& trace, const std::string& path);
// Version 2 is mapped and used in place (the trace keeps the mapping alive);
// version 1 is copied. InputError "<path>: byte <offset>: <reason>" for a short or
// corrupt file, a bad checksum, an unknown version or an inconsistent trace.
Trace read_native_trace(const std::string& path);
// The counts in a native trace's header (version 1 or 2), read without reading or
// checking the rest of the file: enough to plan work on the trace before it is
// loaded. nullopt when the file cannot be read or does not start like a native
// trace (loading it then reports what is wrong).
struct NativeTraceCounts {
  std::uint64_t events = 0;
  std::uint32_t threads = 0;
  std::uint32_t stacks = 0;
  std::uint32_t types = 0;
};
std::optional<NativeTraceCounts> read_native_trace_counts(const std::string& path);

// The checksum a version 2 file's bytes should carry at offset 8 (for tests that
// change a field and reseal the file to reach the check behind the checksum).
std::uint64_t native_trace_checksum(std::string_view file);

}  // namespace allocsim
