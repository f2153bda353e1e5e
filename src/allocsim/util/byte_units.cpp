#include "allocsim/util/byte_units.h"

#include <cmath>
#include <cstdio>
#include <iterator>

namespace allocsim {
namespace {

constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};

}  // namespace

std::string bytes_approx(double bytes) {
  std::size_t unit = 0;
  while (std::fabs(bytes) >= 1024 && unit + 1 < std::size(kUnits)) {
    bytes /= 1024;
    ++unit;
  }
  // 1023.6 KiB prints as 1024 by "%.0f": it is 1 MiB.
  if (std::round(std::fabs(bytes)) >= 1024 && unit + 1 < std::size(kUnits)) {
    bytes /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, std::fabs(bytes) >= 100 || unit == 0 ? "%.0f %s" : "%.3g %s", bytes, kUnits[unit]);
  return text;
}

std::string bytes_exact(double bytes) {
  std::size_t unit = 0;
  double value = bytes;
  while (value != 0 && std::fmod(value, 1024) == 0 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  char text[40];
  std::snprintf(text, sizeof text, "%.0f %s", value, kUnits[unit]);
  return text;
}

}  // namespace allocsim
