#pragma once
// CSV text building: RFC 4180 quoting and exact number formatting.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace allocsim {

// Shortest text that reads back to the same double; NaN (no value) is empty.
std::string format_number(double value);
// A field, quoted when it contains a comma, quote or line break.
std::string csv_field(std::string_view text);
// A sweep value: numbers exactly, strings unquoted.
std::string format_sweep_value(const nlohmann::json& value);

}  // namespace allocsim
