#include "allocsim/trace/format/heaptrack_line.h"

#include <algorithm>
#include <string>

#include "allocsim/util/printable.h"

namespace allocsim {

std::size_t HeaptrackLine::remaining_fields() const {
  if (rest_.empty()) return 0;
  return static_cast<std::size_t>(std::count(rest_.begin(), rest_.end(), ' ')) + 1;
}

std::string_view HeaptrackLine::token() {
  if (rest_.empty()) reader_.fail("missing field");
  const std::size_t space = rest_.find(' ');
  const std::string_view field = rest_.substr(0, space);
  rest_ = space == std::string_view::npos ? std::string_view() : rest_.substr(space + 1);
  if (field.empty()) reader_.fail("empty field (two spaces in a row)");
  return field;
}

std::uint64_t HeaptrackLine::hex() {
  const std::string_view field = token();
  std::uint64_t value = 0;
  for (char c : field) {
    unsigned digit;
    if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<unsigned>(c - 'a' + 10);
    } else {
      reader_.fail("bad hex number " + printable(field));
    }
    if (value >> 60 != 0) reader_.fail("number " + std::string(field) + " overflows 64 bits");
    value = value << 4 | digit;
  }
  return value;
}

std::string_view HeaptrackLine::string(bool sized) {
  if (!sized) return token();
  const std::uint64_t length = hex();
  if (length > rest_.size()) reader_.fail("string of length " + std::to_string(length) + " runs past the line");
  const std::string_view text = rest_.substr(0, length);
  rest_.remove_prefix(length);
  if (!rest_.empty()) {
    if (rest_.front() != ' ') reader_.fail("string length does not match the string");
    rest_.remove_prefix(1);
  }
  return text;
}

std::string_view HeaptrackLine::rest() {
  const std::string_view text = rest_;
  rest_ = {};
  return text;
}

void HeaptrackLine::expect_end() const {
  if (!rest_.empty()) reader_.fail("unexpected extra fields " + printable(rest_));
}

}  // namespace allocsim
