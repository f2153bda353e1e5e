#pragma once
// Reads a real heap profile, recognising its format from its first bytes: gzip is
// pprof (profile.proto), "heap_v2/" a jemalloc prof.dump, "heap profile:" a text heap
// profile (gperftools/jemalloc heap_v2 or heapprofile, tcmalloc heapz_v2, Go debug=1
// heap/2R), a first byte that tags a Profile field an uncompressed pprof. Anything
// else, and any malformed file, is an InputError of one line that names the file,
// what it is and what allocsim reads instead.
#include <string>

#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {

struct ReadOptions {
  // "inuse" (live at the dump), "alloc" (allocated), or empty: the profile's own
  // default (pprof's default_sample_type: alloc for Go's allocs profile), else inuse.
  std::string window;
  // jemalloc 5.3 writes prof_unbias values (its default) or raw counts; the file
  // does not say which, so the reader is told.
  bool jemalloc_unbias = true;
  // Names for the addresses of text profiles from the files their memory map names
  // (symbols.h): runs llvm-symbolizer, so off where only the numbers matter.
  bool symbolize = true;
};

HeapProfile read_profile(const std::string& path, const ReadOptions& options);

// The same from bytes already read; `path` only names them in errors.
HeapProfile parse_profile(const std::string& contents, const std::string& path, const ReadOptions& options);

}  // namespace allocsim::profile
