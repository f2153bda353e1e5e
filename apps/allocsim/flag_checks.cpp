#include "flag_checks.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "allocsim/util/printable.h"

namespace allocsim::cli {
namespace {

std::string number_text(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.15g", value);
  return text;
}

std::string describe(const NumberRange& r) {
  const double max = std::numeric_limits<double>::max();
  if (r.high == max && !r.high_open) return (r.low_open ? "> " : ">= ") + number_text(r.low);
  return std::string("in ") + (r.low_open ? "(" : "[") + number_text(r.low) + ", " + number_text(r.high) +
         (r.high_open ? ")" : "]");
}

}  // namespace

CLI::Validator whole_number(std::uint64_t low, std::uint64_t high) {
  const std::string range = high == std::numeric_limits<std::uint64_t>::max() && low == 0
                                ? "from 0 to 2^64 - 1"
                                : "from " + std::to_string(low) + " to " + std::to_string(high);
  return CLI::Validator(
      [low, high, range](const std::string& text) -> std::string {
        std::uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || error != std::errc() || stop != end || value < low || value > high) {
          return "expected a whole number " + range + ", got " + printable(text);
        }
        return {};
      },
      "UINT");
}

CLI::Validator real_number(NumberRange range) {
  return CLI::Validator(
      [range](const std::string& text) -> std::string {
        char* stop = nullptr;
        const double value = text.empty() ? NAN : std::strtod(text.c_str(), &stop);
        const bool parsed = !text.empty() && stop == text.c_str() + text.size() && std::isfinite(value);
        const bool above_low = range.low_open ? value > range.low : value >= range.low;
        const bool below_high = range.high_open ? value < range.high : value <= range.high;
        if (!parsed || !above_low || !below_high) {
          return "expected a finite number " + describe(range) + ", got " + printable(text);
        }
        return {};
      },
      "NUMBER");
}

}  // namespace allocsim::cli
