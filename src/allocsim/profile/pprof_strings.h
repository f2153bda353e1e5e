#pragma once
// A profile.proto message's string table, for adding strings to it: each text once,
// at the index it first took (index 0 is "", as profile.proto requires).
//
// Text is stored as well-formed UTF-8 (utf8_replaced, util/printable.h): string_table
// is a proto3 `string`, which protobuf refuses to parse when a string is not UTF-8,
// and the text can come from bytes that need not be (a file name in a memory map, a
// symbolizer's answer). An annotated profile must read back wherever it is opened.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "allocsim/profile/profile.pb.h"

namespace allocsim::profile {

class PprofStrings {
 public:
  // Indexes the strings `message` already holds, adding "" if its table is empty.
  explicit PprofStrings(pprof::Profile& message);

  // The index of `text` (made UTF-8), appended to the table when it is new.
  std::int64_t operator()(std::string_view text);

 private:
  pprof::Profile& message_;
  std::map<std::string, std::int64_t, std::less<>> index_;
};

}  // namespace allocsim::profile
