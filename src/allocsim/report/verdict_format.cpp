#include "allocsim/report/verdict_format.h"

#include <cmath>
#include <cstdio>

#include "allocsim/format/csv.h"
#include "allocsim/util/byte_units.h"

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

std::string verdict_sweep_value(const Scenario& scenario, std::size_t point, std::size_t v) {
  const nlohmann::json& value = scenario.points[point].values[v];
  const bool byte_size = scenario.sweep[v].name == "rate" && value.is_number();
  return byte_size ? bytes_exact(value.get<double>()) : format_sweep_value(value);
}

std::string verdict_point_text(const Scenario& scenario, std::size_t point) {
  std::string out;
  for (std::size_t v = 0; v < scenario.sweep.size(); ++v) {
    out += ", " + scenario.sweep[v].name + " " + verdict_sweep_value(scenario, point, v);
  }
  return out;
}

}  // namespace allocsim
