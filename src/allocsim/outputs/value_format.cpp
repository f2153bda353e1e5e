#include "allocsim/outputs/value_format.h"

#include <cmath>
#include <cstdio>

namespace allocsim {
namespace {

std::string significant(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
  return buffer;
}

}  // namespace

std::optional<Unit> parse_unit(const std::string& name) {
  if (name == "none") return Unit::none;
  if (name == "bytes") return Unit::bytes;
  if (name == "fraction") return Unit::fraction;
  if (name == "percent") return Unit::percent;
  return std::nullopt;
}

const char* unit_names() { return "bytes, fraction, percent, none"; }

std::string format_bytes(double bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double magnitude = std::fabs(bytes);
  int unit = 0;
  while (magnitude >= 1024 && unit < 5) {
    magnitude /= 1024;
    ++unit;
  }
  const double scaled = std::copysign(magnitude, bytes);
  return significant(scaled, 4) + " " + kUnits[unit];
}

std::string format_value(double value, Unit unit, int digits) {
  if (std::isnan(value)) return "";
  switch (unit) {
    case Unit::bytes: return format_bytes(value);
    case Unit::percent: return significant(100 * value, digits) + "%";
    case Unit::fraction:
    case Unit::none: break;
  }
  if (value == std::trunc(value) && std::fabs(value) < 1e15) return significant(value, 16);
  return significant(value, digits);
}

std::string format_printf(double value, const char* format) {
  char text[48];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

}  // namespace allocsim
