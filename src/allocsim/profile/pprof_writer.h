#pragma once
// The annotated pprof: everything the profile held (HeapProfile::pprof_message:
// every record of every window, locations, functions, mappings, labels, time,
// duration, comments), unchanged, plus five sample types for the window read, so
// any pprof viewer shows them with -sample_index: samples/count,
// <window>_space_lower/bytes, <window>_space_upper/bytes, <window>_objects_lower/count,
// <window>_objects_upper/count (interval bounds rounded outwards to integers). A record
// with no sample in the window gets 0 samples and the interval of 0 samples: from 0
// to the most its object size could hide (entry_interval.h), at the same level.
#include <string>
#include <vector>

#include "allocsim/profile/entry_interval.h"
#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {

// gzip'd profile.proto bytes; `intervals` is one per entry, in profile order, at `level`.
std::string annotated_pprof(const HeapProfile& profile, const std::vector<EntryInterval>& intervals, double level);

}  // namespace allocsim::profile
