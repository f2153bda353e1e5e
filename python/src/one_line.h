#pragma once
// Text quoted in an error message, made to stay on one line: control characters
// (C0, DEL, C1) and the Unicode line and paragraph separators become escapes as
// Python's repr writes them (\n, \t, \r, \x1b, \x85, \u2028); everything else,
// backslashes included, is kept as it is, so escaping twice changes nothing.
// A local stand-in for util/printable.h's printable(), to be merged with it.
#include <string>
#include <string_view>

namespace allocsim::python {

std::string one_line(std::string_view text);

}  // namespace allocsim::python
