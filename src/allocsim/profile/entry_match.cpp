#include "allocsim/profile/entry_match.h"

#include <utility>
#include <vector>

#include "allocsim/profile/stable_stack.h"
#include "allocsim/util/error.h"

namespace allocsim::profile {
namespace {

// The frames from `first` on (all of them when that leaves none), ';'-separated.
std::string joined(const std::vector<std::string>& frames, std::size_t first) {
  if (frames.empty()) return kNoFrames;
  std::string s;
  for (std::size_t f = first < frames.size() ? first : 0; f < frames.size(); ++f) {
    s += (s.empty() ? "" : ";") + frames[f];
  }
  return s;
}

}  // namespace

EntryMatch match_entry(const HeapProfile& profile, const ProfileEntry& entry) {
  std::vector<std::string> frames = stable_frames(profile, entry);
  std::string stack = joined(frames, 0), label = joined(frames, entry.allocator_frames);
  return {std::move(frames), std::move(stack), std::move(label), entry.mixed_sizes ? -1.0 : entry.object_size};
}

void require_same_scheme(const HeapProfile& first, const HeapProfile& other, const std::string& purpose) {
  if (other.model.system == first.model.system) return;
  throw InputError("\"" + other.path + "\": written by " + other.model.system + " but \"" + first.path + "\" by " +
                   first.model.system + "; " + purpose);
}

}  // namespace allocsim::profile
