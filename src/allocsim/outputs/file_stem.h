#pragma once
// Names of files a scenario asks for (charts, tables) are plain file stems.
#include <algorithm>
#include <cctype>
#include <string>

namespace allocsim {

// Letters, digits, '-', '_' and '.', not starting with '.'.
inline bool is_file_stem(const std::string& name) {
  if (name.empty() || name[0] == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

}  // namespace allocsim
