#pragma once
// Reads a real heap profile, recognising its format from its first bytes: gzip is
// pprof (profile.proto), "heap_v2/" a jemalloc prof.dump, "heap profile:" a
// gperftools heap profile. Anything else, and any malformed file, is an InputError
// of one line that names the file and what is wrong.
#include <string>

#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {

struct ReadOptions {
  std::string window = "inuse";  // "inuse" (live at the dump) or "alloc" (allocated)
  // jemalloc 5.3 writes prof_unbias values (its default) or raw counts; the file
  // does not say which, so the reader is told.
  bool jemalloc_unbias = true;
};

HeapProfile read_profile(const std::string& path, const ReadOptions& options);

// The same from bytes already read; `path` only names them in errors.
HeapProfile parse_profile(const std::string& contents, const std::string& path, const ReadOptions& options);

}  // namespace allocsim::profile
