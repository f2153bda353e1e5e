#include "allocsim/profile/pprof_strings.h"

#include "allocsim/util/printable.h"

namespace allocsim::profile {

PprofStrings::PprofStrings(pprof::Profile& message) : message_(message) {
  if (message_.string_table_size() == 0) message_.add_string_table("");
  for (int i = 0; i < message_.string_table_size(); ++i) index_.emplace(message_.string_table(i), i);
}

std::int64_t PprofStrings::operator()(std::string_view text) {
  std::string valid = utf8_replaced(text);
  const auto [it, added] = index_.emplace(std::move(valid), message_.string_table_size());
  if (added) message_.add_string_table(it->first);
  return it->second;
}

}  // namespace allocsim::profile
