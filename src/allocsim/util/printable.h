#pragma once
// Outside text echoed in a message (a bad line, a string of a file, a flag's value)
// must not reach the terminal raw: a control character or an escape sequence in it
// could rewrite the screen, and a newline would break the one-line error.
#include <cstddef>
#include <string>
#include <string_view>

namespace allocsim {

// `text` in double quotes with `"` and `\` backslashed and every byte outside
// printable ASCII written as \n, \r, \t or \xHH; beyond `limit` bytes of `text` the
// rest is left out and "..." follows the closing quote.
std::string printable(std::string_view text, std::size_t limit = 200);

// A name shown as it is (a file in a message's "where", a function in a table):
// itself when every byte is printable ASCII, else printable(name) with no limit.
std::string printable_name(std::string_view name);

}  // namespace allocsim
