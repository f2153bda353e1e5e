#pragma once
// The annotated pprof: every record of the profile that has samples in the window,
// with its values as written and five more sample types, so any pprof viewer can
// show them with -sample_index: samples/count, <window>_space_lower/bytes,
// <window>_space_upper/bytes, <window>_objects_lower/count,
// <window>_objects_upper/count (interval bounds rounded outwards to integers).
// Frames become functions of the same name (addresses of text profiles included).
#include <string>
#include <vector>

#include "allocsim/profile/entry_interval.h"
#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {

// gzip'd profile.proto bytes; `intervals` is one per entry, in profile order.
std::string annotated_pprof(const HeapProfile& profile, const std::vector<EntryInterval>& intervals);

}  // namespace allocsim::profile
