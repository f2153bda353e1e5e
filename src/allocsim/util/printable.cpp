#include "allocsim/util/printable.h"

#include <algorithm>
#include <cstdint>

namespace allocsim {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void append_byte_escape(std::string& out, unsigned char byte) {
  out += "\\x";
  out += kHex[byte >> 4];
  out += kHex[byte & 0xf];
}

// The length of the well-formed UTF-8 sequence (Unicode table 3-7) that starts `text`
// and its code point, or 0 when the first byte does not start one.
std::size_t utf8_sequence(std::string_view text, std::uint32_t& code_point) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;  // the allowed range of the second byte
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;   // no overlong forms
    if (lead == 0xed) high = 0x9f;  // no surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;   // no overlong forms
    if (lead == 0xf4) high = 0x8f;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (text.size() < length || byte(1) < low || byte(1) > high) return 0;
  code_point = lead & (0x7f >> length);
  for (std::size_t i = 1; i < length; ++i) {
    if (i > 1 && (byte(i) < 0x80 || byte(i) > 0xbf)) return 0;
    code_point = (code_point << 6) | (byte(i) & 0x3f);
  }
  return length;
}

bool acts_on_terminal(std::uint32_t c) {
  return (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029 || c == 0x200e || c == 0x200f ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

// Which of '"' and '\\' are escaped besides what every variant escapes.
struct EscapeMarks {
  bool quote;
  bool backslash;
};

void append_escaped(std::string& out, std::string_view text, EscapeMarks marks) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if ((c == '\\' && marks.backslash) || (c == '"' && marks.quote)) {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c < 0x20 || c == 0x7f) {
        append_byte_escape(out, c);
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    std::uint32_t code_point = 0;
    const std::size_t length = utf8_sequence(text.substr(i), code_point);
    if (length == 0) {
      append_byte_escape(out, c);
      ++i;
    } else if (acts_on_terminal(code_point)) {
      out += "\\u{";
      for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code_point >> shift) & 0xf];
      out += '}';
      i += length;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out = "\"";
  append_escaped(out, text, {.quote = true, .backslash = true});
  return out + "\"";
}

std::string printable_unquoted(std::string_view text) {
  std::string out;
  append_escaped(out, text, {.quote = false, .backslash = true});
  return out;
}

std::string one_line(std::string_view message) {
  std::string out;
  append_escaped(out, message, {.quote = false, .backslash = false});
  return out;
}

bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t code_point = 0;
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
    } else if (const std::size_t length = utf8_sequence(text.substr(i), code_point); length > 0) {
      i += length;
    } else {
      return false;
    }
  }
  return true;
}

std::string utf8_replaced(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t code_point = 0;
    std::size_t length = static_cast<unsigned char>(text[i]) < 0x80 ? 1 : utf8_sequence(text.substr(i), code_point);
    if (length == 0) {
      out += "\xef\xbf\xbd";  // U+FFFD
      length = 1;
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

std::string printable_name(std::string_view name) {
  const bool plain = std::all_of(name.begin(), name.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
  return plain ? std::string(name) : printable(name);
}

}  // namespace allocsim
