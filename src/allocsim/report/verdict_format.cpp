#include "allocsim/report/verdict_format.h"

#include <cmath>
#include <cstdio>

#include "allocsim/format/csv.h"
#include "allocsim/util/byte_units.h"

namespace allocsim {

std::string verdict_truth_text(Quantity q) {
  switch (q) {
    case Quantity::requested_bytes: return "requested bytes (the sizes the program asked for)";
    case Quantity::allocated_bytes: return "allocated bytes (each request rounded up to the allocator's size class)";
    case Quantity::count: return "allocations (a count, not bytes)";
    case Quantity::net_allocated_bytes: return "net allocated bytes (allocated and never freed in the trace)";
  }
  return to_string(q);
}

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
