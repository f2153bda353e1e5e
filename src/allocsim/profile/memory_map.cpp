#include "allocsim/profile/memory_map.h"

#include <algorithm>
#include <charconv>

namespace allocsim::profile {

std::uint64_t hex_value(std::string_view text) {
  if (text.substr(0, 2) == "0x") text.remove_prefix(2);
  std::uint64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value, 16);
  return value;
}

std::vector<MappedRange> executable_ranges(std::string_view text) {
  std::vector<MappedRange> ranges;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::vector<std::string_view> fields;
    std::size_t file_at = std::string_view::npos;
    for (std::size_t at = 0; fields.size() < 6;) {
      at = line.find_first_not_of(" \t", at);
      if (at == std::string_view::npos) break;
      if (fields.size() == 5) file_at = at;  // the file name runs to the line's end
      const std::size_t stop = std::min(line.find_first_of(" \t", at), line.size());
      fields.push_back(line.substr(at, stop - at));
      at = stop;
    }
    if (fields.size() < 5) continue;
    const std::size_t dash = fields[0].find('-');
    if (dash == std::string_view::npos || fields[1].find('x') == std::string_view::npos) continue;
    MappedRange range{hex_value(fields[0].substr(0, dash)), hex_value(fields[0].substr(dash + 1)), hex_value(fields[2]),
                      0, ""};
    std::from_chars(fields[4].data(), fields[4].data() + fields[4].size(), range.inode);
    if (file_at != std::string_view::npos) range.file = std::string(line.substr(file_at));
    if (range.limit > range.start) ranges.push_back(std::move(range));
  }
  return ranges;
}

}  // namespace allocsim::profile
