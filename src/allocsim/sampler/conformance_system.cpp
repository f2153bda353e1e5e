#include "allocsim/sampler/conformance_system.h"

#include <charconv>

#include "allocsim/util/error.h"

namespace allocsim {

std::uint64_t driver_meta_uint(const std::map<std::string, std::string>& meta, const std::string& key,
                               std::uint64_t max) {
  const std::string& text = meta.at(key);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty() || value > max) {
    throw InputError("driver meta " + key + ": expected an integer from 0 to " + std::to_string(max) + ", got \"" +
                     text + "\"");
  }
  return value;
}

}  // namespace allocsim
