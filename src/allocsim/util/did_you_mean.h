#pragma once
// "Did you mean" for a misspelt name: the closest of the known names, if it is close.
#include <string>
#include <string_view>
#include <vector>

namespace allocsim {

// The known name nearest to `word` by edit distance (insertions, deletions,
// substitutions and swaps of neighbours), if at most a third of its length away
// (at least 1, at most 3 edits); failing that, the one known name that shares the
// longest beginning with `word`, if that beginning is at least 4 characters and
// two thirds of the word (an abbreviation: "passthru" for "passthrough", "ht" no);
// "" when none is that close.
std::string closest_name(std::string_view word, const std::vector<std::string>& known);

// " (did you mean \"x\"?)" or "", to append to an error message.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& known);

}  // namespace allocsim
