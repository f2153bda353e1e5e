#include "jemalloc_unbias_option.h"

#include <string>

#include "allocsim/util/printable.h"

namespace allocsim::cli {

void add_jemalloc_unbias_option(CLI::App& command, profile::ReadOptions& read) {
  command
      .add_option_function<std::string>(
          "--jemalloc-unbias", [&read](const std::string& value) { read.jemalloc_unbias = value == "on"; },
          "on: jemalloc 5.3 wrote prof_unbias values (its default); off: raw counts")
      ->check(CLI::Validator(
          [](const std::string& value) -> std::string {
            if (value == "on" || value == "off") return {};
            return "must be on or off, got " + printable(value);
          },
          "on|off"))
      ->default_str("on");
}

}  // namespace allocsim::cli
