#pragma once
// The two text heap profiles that share jeprof/pprof's "heap_v2" scaling: each record
// holds raw or pre-unbiased sampled objects and bytes, and the tools scale a record
// of c objects and b bytes by 1/(1 - exp(-(b/c)/R)) (jeprof AdjustSamples; gperftools
// pprof, heap_v2).
//
//   jemalloc 5.3 prof.dump:  "heap_v2/R", then per stack "@ 0x.. 0x.." followed by
//       "  t*: c: b [c: b]" (live, then accumulated when prof_accum is on) and one
//       "  tN:" line per thread; "MAPPED_LIBRARIES:" ends the records. With
//       prof_unbias (5.3's default) c and b are not the raw sample counts but values
//       chosen so that the scaling above gives the unbiased estimate
//       (prof_data.c prof_do_unbias): c = sum over samples of 1/(1-exp(-z/R)) times
//       (1-exp(-(b/c)/R)), truncated, which is the sample count when the record
//       holds one size class and an approximation of it otherwise.
//   gperftools 2.10:  "heap profile: c: b [c: b] @ heap_v2/R", then
//       "c: b [c: b] @ 0x.. 0x.." per record (GetHeapSample: one line per sampled
//       object, raw counts).
#include <string>

#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {

HeapProfile read_jemalloc_heap(const std::string& text, const std::string& path, const std::string& window,
                               bool unbias);
HeapProfile read_gperftools_heap(const std::string& text, const std::string& path, const std::string& window);

}  // namespace allocsim::profile
