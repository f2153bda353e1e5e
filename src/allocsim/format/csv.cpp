#include "allocsim/format/csv.h"

#include <charconv>
#include <cmath>

#include "allocsim/util/json_text.h"

namespace allocsim {

std::string format_number(double value) {
  if (std::isnan(value)) return "";
  // Whole numbers (byte counts, truths) print as integers, not 1e+05.
  if (value == std::trunc(value) && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<long long>(value));
  }
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string format_sweep_value(const nlohmann::json& value) {
  if (value.is_string()) return csv_field(value.get<std::string>());
  if (value.is_number_float()) return format_number(value.get<double>());
  return json_text(value);
}

}  // namespace allocsim
