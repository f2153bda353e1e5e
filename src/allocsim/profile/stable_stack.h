#pragma once
// An entry's stack as text that is the same in every run of the program, so that two
// profiles' entries can be matched (`allocsim diff`). A frame keeps its name where it
// has one; a frame that is still an address (a stripped library such as Debian's
// libjemalloc.so.2, or a file not on this machine) becomes FILE+0xOFFSET when it lies
// in a mapping of the profile's memory map: its place in the file, a - start + o for
// a mapping [start, limit) at file offset o (memory_map.h), which address-space
// randomisation, moving each mapping whole, leaves unchanged. FILE is the file's base
// name. Other addresses stay as written.
#include <string>
#include <vector>

#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {

// The entry's frames, leaf first, each made stable as above.
std::vector<std::string> stable_frames(const HeapProfile& profile, const ProfileEntry& entry);

}  // namespace allocsim::profile
