#pragma once
// The memory map a text heap profile ends with ("MAPPED_LIBRARIES:" in jemalloc and
// gperftools dumps, "--- Memory map: ---" in tcmalloc's): /proc/self/maps lines,
//   start-limit perms offset dev inode [file]
// of which, as pprof's ParseProcMaps (profile/legacy_profile.go), only the
// executable ones are kept: code addresses fall in them.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace allocsim::profile {

struct MappedRange {
  std::uint64_t start = 0, limit = 0;  // [start, limit)
  std::uint64_t offset = 0;            // file offset of start
  std::uint64_t inode = 0;             // of the file the process mapped; 0 for none
  std::string file;                    // as written; may be empty or "[vdso]"
};

// Lines that do not parse are skipped (pprof skips what it does not recognise).
std::vector<MappedRange> executable_ranges(std::string_view memory_map);

// The value of "0x1f" or "1f"; 0 for text that is not hexadecimal.
std::uint64_t hex_value(std::string_view text);

}  // namespace allocsim::profile
