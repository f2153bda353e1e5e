#include "allocsim/outputs/row_filter.h"

#include <algorithm>

#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"

namespace allocsim {
namespace {

bool cell_equals(const std::string& cell, const nlohmann::json& value) {
  if (value.is_string()) return cell == value.get_ref<const std::string&>();
  const auto number = parse_cell_number(cell);
  return number && *number == value.get<double>();
}

}  // namespace

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

bool RowFilter::matches(const CsvTable& table, const std::vector<std::string>& row) const {
  for (const auto& [column, values] : conditions) {
    const auto index = table.find(column);
    if (!index) return false;
    const std::string& cell = row[*index];
    if (std::none_of(values.begin(), values.end(), [&](const auto& v) { return cell_equals(cell, v); })) {
      return false;
    }
  }
  return true;
}

RowFilter parse_row_filter(const JsonValue& where, const std::vector<std::string>& columns) {
  RowFilter filter;
  JsonObject object = where.object();
  for (const auto& [key, unused] : where.raw().items()) {
    JsonValue selected = object.at(key);
    if (std::find(columns.begin(), columns.end(), key) == columns.end()) {
      selected.fail(printable(key) + " is not a column (known: " + join_names(columns) + ")");
    }
    std::vector<nlohmann::json> values;
    if (selected.is_array()) {
      for (const JsonValue& item : selected.non_empty_array()) values.push_back(item.raw());
    } else {
      values.push_back(selected.raw());
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!values[i].is_string() && !values[i].is_number()) {
        selected.fail("expected a string, a number or a list of them");
      }
    }
    filter.conditions.emplace_back(key, std::move(values));
  }
  object.finish();
  return filter;
}

}  // namespace allocsim
