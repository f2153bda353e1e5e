#pragma once
// A text heap profile (jemalloc, gperftools, tcmalloc heapz, Go debug=1) as
// profile.proto, the way google/pprof's legacy parser converts one
// (profile/legacy_profile.go: parseHeap, parseHeapSample, scaleHeapSample,
// ParseProcMaps), so that the annotated copy shows in pprof what the original shows:
//   sample types alloc_objects/count, alloc_space/bytes, inuse_objects/count,
//     inuse_space/bytes (alloc first, as pprof writes them);
//   each window's pair (c, b) scaled by scaleHeapSample: with s = b / c and rate R,
//     int64(c / (1 - exp(-s/R))) and int64(b / (1 - exp(-s/R))), unscaled for R <= 1
//     (an unsampled profile); a "bytes" label with the average object size;
//   one location per address, each non-leaf address less 1 (a return address points
//     after its call);
//   mappings from the memory map after "MAPPED_LIBRARIES:" (/proc/self/maps lines:
//     start-limit perms offset dev inode file; executable ones only), each location
//     tied to the mapping that holds it, so pprof can symbolize from those files.
// Every record is kept, whatever the window: sample i is record i.
#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/profile/memory_map.h"

namespace allocsim::profile {

struct LegacyRecord {
  std::vector<std::string> frames;  // hex addresses, leaf first, as written
  std::uint64_t inuse_objects = 0, inuse_bytes = 0, alloc_objects = 0, alloc_bytes = 0;
};

// The uncompressed profile.proto bytes; `rate` is the header's (0: unsampled),
// `mappings` the executable ranges of the memory map after the records (none when
// the format has none), mapping i + 1 of the message; `window` ("inuse" or
// "alloc") names the default sample type.
std::string legacy_pprof(const std::vector<LegacyRecord>& records, double rate,
                         const std::vector<MappedRange>& mappings, const std::string& window);

}  // namespace allocsim::profile
