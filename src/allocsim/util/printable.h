#pragma once
// User text made safe to echo in a one-line message on a terminal.
//
// Input such as a file name, a JSON key or a flag value may hold line breaks, terminal
// escape sequences or bytes that are not UTF-8. Echoed raw, it can split an error over
// two lines, recolour or rewrite the terminal, or leave invalid text in a log.
#include <string>
#include <string_view>

namespace allocsim {

// `text` in double quotes, escaped as by printable_unquoted() and with '"' as \".
// printable("a\nb") is "\"a\\nb\"": the quotes show where the user's text begins and ends.
std::string printable(std::string_view text);

// `text` escaped without quotes, for user text that leads a message as its "where" (a
// file name, a flag's value). Printable ASCII and well-formed UTF-8 pass unchanged, except:
//   - \ as \\ (so every escape below reads back unambiguously);
//   - line feed, carriage return and tab as \n \r \t; other C0 controls and DEL as
//     \xHH (ESC is \x1b);
//   - each byte that is not part of well-formed UTF-8 (stray continuation bytes,
//     overlong forms, surrogates, code points past U+10FFFF, truncated sequences)
//     as \xHH, one escape per byte;
//   - code points a terminal may act on or that break or reorder a line: the C1
//     controls U+0080..U+009F (U+009B is a CSI), U+2028 and U+2029 (line and paragraph
//     separators) and the bidirectional marks and overrides U+200E, U+200F,
//     U+202A..U+202E, U+2066..U+2069, as \u{XXXX}.
std::string printable_unquoted(std::string_view text);

// A whole message made safe to print, for the CLI's last step: escaped as by
// printable_unquoted() except that a backslash is left as it is, so the escapes that
// printable() already wrote into the message pass through unchanged. A net for user
// text that reached a message without printable(): it cannot split or restyle the line.
std::string one_line(std::string_view message);

// A name shown as it is (a file in a message's "where", a frame in a table): itself
// when every byte is printable ASCII, else printable(name).
std::string printable_name(std::string_view name);

// Whether `text` is well-formed UTF-8 throughout.
bool is_utf8(std::string_view text);

// `text` as well-formed UTF-8: each byte that is not part of a well-formed sequence
// becomes U+FFFD, as json_text() writes it. For formats whose strings must be UTF-8
// (a protobuf `string` field fails to parse otherwise) fed from bytes that need not be
// (a file name in a memory map).
std::string utf8_replaced(std::string_view text);

}  // namespace allocsim
