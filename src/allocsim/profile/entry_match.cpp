#include "allocsim/profile/entry_match.h"

#include <utility>
#include <vector>

#include "allocsim/profile/stable_stack.h"
#include "allocsim/profile/stack_label.h"
#include "allocsim/util/error.h"

namespace allocsim::profile {

EntryMatch match_entry(const HeapProfile& profile, const ProfileEntry& entry) {
  const std::vector<std::string> frames = stable_frames(profile, entry);
  std::string stack = frames.empty() ? kNoFrames : "";
  for (std::size_t f = 0; f < frames.size(); ++f) stack += (f > 0 ? ";" : "") + frames[f];
  return {std::move(stack), stack_label(frames, entry.allocator_frames, kTableFrames),
          entry.mixed_sizes ? -1.0 : entry.object_size};
}

void require_same_scheme(const HeapProfile& first, const HeapProfile& other, const std::string& purpose) {
  if (other.model.system == first.model.system) return;
  throw InputError("\"" + other.path + "\": written by " + other.model.system + " but \"" + first.path + "\" by " +
                   first.model.system + "; " + purpose);
}

}  // namespace allocsim::profile
