#pragma once
// Go heap profiles in pprof's profile.proto (runtime/pprof writeHeapProto, Go 1.19):
// sample types alloc_objects, alloc_space, inuse_objects, inuse_space; period = the
// MemProfileRate R; each record (stack, size) scaled by 1/(1 - exp(-s/R)) with s its
// average size (scaleHeapSample, protomem.go), truncated to an integer, and labelled
// "bytes" = s.
//
// Samples behind a record: Go writes floor(k f) with f = 1/(1 - exp(-s/R)) >= 1, so
// (written)/f lies in (k - 1, k] and its ceiling is k exactly when s is known from
// the "bytes" label; without the label s is the written bytes over the written
// objects and k is approximate.
#include <string>

#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {

// `data` is the decompressed protobuf; an empty `window` is the profile's default
// (default_sample_type: alloc_space in Go's allocs profile), else inuse.
HeapProfile read_pprof(const std::string& data, const std::string& path, const std::string& window);

}  // namespace allocsim::profile
