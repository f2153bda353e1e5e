#include "allocsim/util/printable.h"

#include <algorithm>

namespace allocsim {
namespace {

bool plain(char c) { return c >= 0x20 && c < 0x7f; }

}  // namespace

std::string printable(std::string_view text, std::size_t limit) {
  static constexpr char kHex[] = "0123456789abcdef";
  const std::string_view shown = text.substr(0, limit);
  std::string out = "\"";
  for (const char c : shown) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (plain(c)) {
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    }
  }
  out += '"';
  if (shown.size() < text.size()) out += "...";
  return out;
}

std::string printable_name(std::string_view name) {
  if (std::all_of(name.begin(), name.end(), plain)) return std::string(name);
  return printable(name, name.size());
}

}  // namespace allocsim
