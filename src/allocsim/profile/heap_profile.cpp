#include "allocsim/profile/heap_profile.h"

#include <cmath>

#include "allocsim/util/error.h"

namespace allocsim::profile {

void check_estimate(const ProfileEntry& entry, const std::string& where) {
  if (!(entry.estimate_objects <= kMaxEstimateObjects) || !std::isfinite(entry.estimate_bytes)) {
    throw InputError(where + ": the record's estimate of objects (" + std::to_string(entry.estimate_objects) +
                     ") is beyond 2^62");
  }
}

void check_profile_size(std::size_t records, std::size_t frames, const std::string& path) {
  if (records > kMaxRecords) {
    throw InputError(path + ": more than " + std::to_string(kMaxRecords) + " records (the limit)");
  }
  if (frames > kMaxFrames) {
    throw InputError(path + ": more than " + std::to_string(kMaxFrames) + " stack frames in all (the limit)");
  }
}

}  // namespace allocsim::profile
