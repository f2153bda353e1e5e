#pragma once
// The one way allocsim turns a JSON value into text: every JSON file it writes, every
// JSON it prints, and JSON text used as a key or hash input goes through json_text().
#include <nlohmann/json.hpp>

#include <string>

namespace allocsim {

// `value` as JSON text, compact (indent < 0) or indented by `indent` spaces, always
// valid UTF-8. Strings hold what allocsim was given (file names, stack names from a
// trace), which need not be UTF-8; each byte that is not part of well-formed UTF-8 is
// REPLACED by U+FFFD (nlohmann's error_handler_t::replace), written as the character,
// not as \ufffd. Replacement rather than a private escape such as "\\xff": the text
// stays what any JSON reader reads as the same string wherever the input was UTF-8,
// and a reader is never left to guess whether a backslash came from the input. The
// cost is that distinct invalid bytes read back alike.
std::string json_text(const nlohmann::json& value, int indent = -1);
std::string json_text(const nlohmann::ordered_json& value, int indent = -1);

}  // namespace allocsim
