#pragma once
// Which entries of several profiles of one program are the same site (`allocsim diff`,
// `allocsim aggregate`): entries match by their stable stack (stable_stack.h) and
// object size, except a record whose size is the average of several (jemalloc keeps
// one record per stack): its average moves from run to run with the objects sampled,
// so it matches by stack alone.
#include <string>
#include <utility>

#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {

struct EntryMatch {
  std::string stack;    // every stable frame, ';'-separated (kNoFrames for none): the key
  std::string label;    // the same as terminal tables show it (stack_label.h, kTableFrames)
  double size_key = 0;  // the object size, or -1 for a record of mixed sizes

  std::pair<std::string, double> key() const { return {stack, size_key}; }
};

EntryMatch match_entry(const HeapProfile& profile, const ProfileEntry& entry);

// InputError naming `other`'s file when it was written by another sampling scheme
// than `first`: entries only match, and counts only pool, within one scheme. `purpose`
// ends the line ("diff compares two profiles of one sampling scheme").
void require_same_scheme(const HeapProfile& first, const HeapProfile& other, const std::string& purpose);

}  // namespace allocsim::profile
