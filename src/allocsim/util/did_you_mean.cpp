#include "allocsim/util/did_you_mean.h"

#include <algorithm>
#include <cctype>

namespace allocsim {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Optimal string alignment distance, case-insensitive.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::string closest_name(std::string_view word, const std::vector<std::string>& known) {
  const std::size_t limit = std::clamp<std::size_t>(word.size() / 3, 1, 3);
  std::string best;
  std::size_t best_distance = limit + 1;
  for (const std::string& name : known) {
    const std::size_t distance = edit_distance(word, name);
    if (distance < best_distance && name != word) {
      best = name;
      best_distance = distance;
    }
  }
  if (!best.empty()) return best;
  // An abbreviation or a word cut short: the longest shared beginning, if one name alone has it.
  std::size_t best_prefix = 0;
  bool unique = false;
  for (const std::string& name : known) {
    if (name == word) continue;
    std::size_t n = 0;
    while (n < word.size() && n < name.size() && lower(word[n]) == lower(name[n])) ++n;
    if (n > best_prefix) {
      best_prefix = n;
      best = name;
      unique = true;
    } else if (n == best_prefix && n > 0) {
      unique = false;
    }
  }
  return unique && best_prefix >= 4 && 3 * best_prefix >= 2 * word.size() ? best : "";
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& known) {
  const std::string name = closest_name(word, known);
  return name.empty() ? "" : " (did you mean \"" + name + "\"?)";
}

}  // namespace allocsim
