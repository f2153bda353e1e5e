#include "allocsim/profile/stack_label.h"

#include "allocsim/profile/heap_profile.h"
#include "allocsim/util/printable.h"

namespace allocsim::profile {

std::string stack_label(const std::vector<std::string>& frames, std::size_t allocator_frames, std::size_t depth) {
  if (frames.empty()) return kNoFrames;
  const std::size_t first = allocator_frames < frames.size() ? allocator_frames : 0;
  std::string text;
  for (std::size_t f = first; f < frames.size() && f < first + depth; ++f) {
    if (f > first) text += " < ";
    text += printable_name(frames[f]);
  }
  if (frames.size() > first + depth) text += " < ...";
  return text;
}

}  // namespace allocsim::profile
