#include "allocsim/report/verdict_format.h"

#include <cmath>
#include <cstdio>
#include <iterator>

#include "allocsim/format/csv.h"

namespace allocsim {

std::string verdict_percent(double fraction) {
  if (std::isnan(fraction)) return "n/a";
  const double p = 100 * fraction;
  char text[32];
  if (std::fabs(p) >= 9.95) {
    std::snprintf(text, sizeof text, "%.0f%%", p);
  } else {
    std::snprintf(text, sizeof text, "%.2g%%", p);
  }
  return text;
}

std::string verdict_bytes(double value) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  while (std::fabs(value) >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, std::fabs(value) >= 100 || unit == 0 ? "%.0f %s" : "%.3g %s", value, kUnits[unit]);
  return text;
}

std::string verdict_sweep_value(const Scenario& scenario, std::size_t point, std::size_t v) {
  const nlohmann::json& value = scenario.points[point].values[v];
  const bool byte_size = scenario.sweep[v].name == "rate" && value.is_number();
  return byte_size ? verdict_bytes(value.get<double>()) : format_sweep_value(value);
}

std::string verdict_point_text(const Scenario& scenario, std::size_t point) {
  std::string out;
  for (std::size_t v = 0; v < scenario.sweep.size(); ++v) {
    out += ", " + scenario.sweep[v].name + " " + verdict_sweep_value(scenario, point, v);
  }
  return out;
}

}  // namespace allocsim
