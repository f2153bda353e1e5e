#pragma once
// The fields of one heaptrack line after its type character: lower-case hex
// numbers and sized strings ("<hex length> <bytes>"), separated by single spaces.
// Malformed fields fail through the line reader, so errors name file and line.
#include <cstdint>
#include <string_view>

#include "allocsim/trace/format/line_reader.h"

namespace allocsim {

class HeaptrackLine {
 public:
  // `fields` is the line after "<type> ".
  HeaptrackLine(std::string_view fields, const LineReader& reader) : rest_(fields), reader_(reader) {}

  bool at_end() const { return rest_.empty(); }
  std::size_t remaining_fields() const;
  std::uint64_t hex();
  // A string sized by a hex length (file format 3), or else one space-free token.
  std::string_view string(bool sized);
  // The rest of the line as it is (the 'X' command line).
  std::string_view rest();
  void expect_end() const;

 private:
  std::string_view token();

  std::string_view rest_;
  const LineReader& reader_;
};

}  // namespace allocsim
