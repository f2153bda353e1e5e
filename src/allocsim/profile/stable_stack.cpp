#include "allocsim/profile/stable_stack.h"

#include <cstdint>
#include <cstdio>

#include "allocsim/profile/memory_map.h"

namespace allocsim::profile {
namespace {

bool is_address(const std::string& frame) {
  return frame.size() > 2 && frame.compare(0, 2, "0x") == 0 &&
         frame.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos;
}

std::string stable_frame(const std::vector<MappedRange>& map, const std::string& frame) {
  if (!is_address(frame)) return frame;
  const std::uint64_t address = hex_value(frame);
  for (const MappedRange& range : map) {
    if (address < range.start || address >= range.limit || range.file.empty()) continue;
    const std::size_t slash = range.file.rfind('/');
    char offset[24];
    std::snprintf(offset, sizeof offset, "+0x%llx",
                  static_cast<unsigned long long>(address - range.start + range.offset));
    return (slash == std::string::npos ? range.file : range.file.substr(slash + 1)) + offset;
  }
  return frame;
}

}  // namespace

std::vector<std::string> stable_frames(const HeapProfile& profile, const ProfileEntry& entry) {
  std::vector<std::string> frames;
  frames.reserve(entry.frames.size());
  for (const std::string& frame : entry.frames) frames.push_back(stable_frame(profile.memory_map, frame));
  return frames;
}

}  // namespace allocsim::profile
