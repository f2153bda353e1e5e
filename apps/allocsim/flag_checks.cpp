#include "flag_checks.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "allocsim/json/byte_size.h"
#include "allocsim/util/error.h"
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

bool in_range(double value, const NumberRange& range) {
  const bool above_low = range.low_open ? value > range.low : value >= range.low;
  const bool below_high = range.high_open ? value < range.high : value <= range.high;
  return above_low && below_high;
}

// The whole text as one finite number (strtod: decimals and exponents), or NaN.
double finite_number(const std::string& text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front()))) return NAN;
  char* stop = nullptr;
  const double value = std::strtod(text.c_str(), &stop);
  return stop == text.c_str() + text.size() && std::isfinite(value) ? value : NAN;
}

// The text a number is handed on to CLI11 as: all 17 digits, so it reads back exactly.
std::string exact_text(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// The bytes `text` stands for, or NaN with why in `reason` (byte_size.h's words: an
// ambiguous "kB" is named as such).
double bytes_of(const std::string& text, std::string& reason) {
  try {
    return parse_byte_size(text, "");
  } catch (const InputError& e) {
    reason = e.what();
    if (reason.rfind(": ", 0) == 0) reason.erase(0, 2);
    return NAN;
  }
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

CLI::Validator probability(NumberRange range) {
  return CLI::Validator(
      [range](std::string& text) -> std::string {
        double value = finite_number(text);
        if (const auto slash = text.find('/'); std::isnan(value) && slash != std::string::npos) {
          const double numerator = finite_number(text.substr(0, slash));
          const double denominator = finite_number(text.substr(slash + 1));
          if (denominator != 0) value = numerator / denominator;  // NaN stays NaN
        }
        if (!std::isfinite(value) || !in_range(value, range)) {
          return "expected a probability " + describe(range) + " such as 0.001, 1e-3 or 1/1000, got " + printable(text);
        }
        text = exact_text(value);
        return {};
      },
      "PROBABILITY");
}

CLI::Validator byte_amount(NumberRange range) {
  return CLI::Validator(
      [range](std::string& text) -> std::string {
        std::string reason;
        const double bytes = bytes_of(text, reason);
        if (std::isnan(bytes) && reason.find("expected") == std::string::npos) return reason;
        if (std::isnan(bytes) || !in_range(bytes, range)) {
          return "expected a number of bytes " + describe(range) + " such as 4096, 64KiB or 2MiB, got " +
                 printable(text);
        }
        text = exact_text(bytes);
        return {};
      },
      "BYTES");
}

CLI::Validator whole_byte_count(std::uint64_t low, std::uint64_t high) {
  return CLI::Validator(
      [low, high](std::string& text) -> std::string {
        std::string reason;
        const double bytes = bytes_of(text, reason);
        if (std::isnan(bytes) && reason.find("expected") == std::string::npos) return reason;
        if (std::isnan(bytes) || bytes != std::floor(bytes) || bytes < static_cast<double>(low) ||
            bytes > static_cast<double>(high)) {
          return "expected a whole number of bytes from " + std::to_string(low) + " to " + std::to_string(high) +
                 " such as 4096, 64KiB or 2MiB, got " + printable(text);
        }
        text = std::to_string(static_cast<std::uint64_t>(bytes));
        return {};
      },
      "BYTES");
}

}  // namespace allocsim::cli
