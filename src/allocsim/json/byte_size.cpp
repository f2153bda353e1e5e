#include "allocsim/json/byte_size.h"

#include <array>
#include <charconv>
#include <cmath>

#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"

namespace allocsim {
namespace {

struct Unit {
  std::string_view name;  // lower case
  double bytes;           // 0: ambiguous
};

constexpr std::array<Unit, 18> kUnits = {{
    {"", 1},
    {"b", 1},
    {"k", 1024.0},
    {"ki", 1024.0},
    {"kib", 1024.0},
    {"m", 0x1p20},
    {"mi", 0x1p20},
    {"mib", 0x1p20},
    {"g", 0x1p30},
    {"gi", 0x1p30},
    {"gib", 0x1p30},
    {"t", 0x1p40},
    {"ti", 0x1p40},
    {"tib", 0x1p40},
    {"kb", 0},
    {"mb", 0},
    {"gb", 0},
    {"tb", 0},
}};

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

double parse_byte_size(std::string_view text, const std::string& where) {
  const auto fail = [&](const std::string& reason) -> double { throw InputError(where + ": " + reason); };
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  double number = 0;
  // Digits with an optional fraction only: no sign, exponent, "inf" or "nan".
  const char* digits_end = begin;
  while (digits_end != end && (std::isdigit(static_cast<unsigned char>(*digits_end)) || *digits_end == '.')) {
    ++digits_end;
  }
  const auto [parsed_end, error] = std::from_chars(begin, digits_end, number, std::chars_format::fixed);
  if (digits_end == begin || error != std::errc() || parsed_end != digits_end) {
    fail("expected a byte size such as 4096, \"4k\" or \"2MiB\", got " + printable(text));
  }
  std::string_view unit_text(digits_end, static_cast<std::size_t>(end - digits_end));
  if (!unit_text.empty() && unit_text.front() == ' ') unit_text.remove_prefix(1);
  const std::string unit = lower(unit_text);
  for (const Unit& u : kUnits) {
    if (u.name != unit) continue;
    if (u.bytes == 0) {
      const std::string binary = std::string(text.substr(0, static_cast<std::size_t>(digits_end - begin))) +
                                 static_cast<char>(std::toupper(static_cast<unsigned char>(unit[0]))) + "iB";
      fail("ambiguous unit in " + printable(text) + " (1000 or 1024 bytes?): write " + printable(binary) +
           " or the plain number of bytes");
    }
    const double bytes = number * u.bytes;
    if (!std::isfinite(bytes) || bytes >= 0x1p64) fail(printable(text) + " is too large (at most 2^64 - 1 bytes)");
    return bytes;
  }
  return fail("unknown unit in " + printable(text) + " (known: B, k/KiB, M/MiB, G/GiB, T/TiB, powers of 1024)");
}

namespace {

double byte_amount(const JsonValue& value) {
  if (value.is_string()) return parse_byte_size(value.string(), value.path());
  return value.number();
}

}  // namespace

std::uint64_t byte_count(const JsonValue& value) {
  if (!value.is_string()) return value.uint();
  const double bytes = byte_amount(value);
  if (bytes != std::floor(bytes)) {
    value.fail("must be a whole number of bytes, got " + printable(value.string()) + " = " + std::to_string(bytes));
  }
  return static_cast<std::uint64_t>(bytes);
}

std::uint64_t positive_byte_count(const JsonValue& value) {
  if (!value.is_string()) return value.positive_uint();
  const std::uint64_t bytes = byte_count(value);
  if (bytes == 0) value.fail("must be >= 1 byte, got " + printable(value.string()));
  return bytes;
}

double positive_byte_amount(const JsonValue& value) {
  if (!value.is_string()) return value.positive_number();
  const double bytes = byte_amount(value);
  if (!(bytes > 0)) value.fail("must be > 0 bytes, got " + printable(value.string()));
  return bytes;
}

}  // namespace allocsim
