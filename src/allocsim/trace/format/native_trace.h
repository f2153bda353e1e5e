#pragma once
// allocsim's own binary trace format (".ast"): the Trace columns stored as they
// are in memory, so a file is memory-mapped, checked, and each column copied with
// one memcpy. All integers little-endian.
//
//   offset  size  field
//        0     8  magic 89 41 53 54 0d 0a 1a 0a ("\x89AST\r\n\x1a\n")
//        8     8  XXH64 (seed 0) of every byte from offset 16 to the end of the file
//       16     4  format version (1)
//       20     4  header size (192)
//       24     8  events n
//       32     4  thread count        36  4  stack count        40  4  type count
//       44     4  flags: bit 0 = the allocated column is present
//       48   144  9 sections, each (offset u64, length u64), in this order:
//                 thread u32[n], requested u64[n], allocated u64[n] (or length 0),
//                 stack u32[n], type u32[n], time u64[n], free_time u64[n],
//                 stack names, type names
//      192        sections, each starting at a multiple of 64 bytes, zero padding
//
// A names section is u32 count (0 = no names, else the stack or type count), then
// per name u32 length and its bytes. free_time 2^64-1 means live at the end.
#include <string>

#include "allocsim/trace/trace.h"

namespace allocsim {

inline constexpr unsigned char kNativeTraceMagic[8] = {0x89, 'A', 'S', 'T', '\r', '\n', 0x1a, '\n'};
inline constexpr std::uint32_t kNativeTraceVersion = 1;

// The file's bytes.
std::string encode_native_trace(const Trace& trace);
// Written atomically (temp file + rename).
void write_native_trace(const Trace& trace, const std::string& path);
// InputError "<path>: byte <offset>: <reason>" for a short or corrupt file, a bad
// checksum, an unknown version or an inconsistent trace.
Trace read_native_trace(const std::string& path);

}  // namespace allocsim
