#pragma once
// Row selection for charts and tables: {"scheme": "poisson", "rate": [32768, 524288]}
// keeps the rows whose column equals the value (or one of the listed values).
// Numbers compare as numbers, so 524288 matches the cell "524288".
#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "allocsim/format/csv_reader.h"
#include "allocsim/json/json_reader.h"

namespace allocsim {

struct RowFilter {
  std::vector<std::pair<std::string, std::vector<nlohmann::json>>> conditions;

  bool empty() const { return conditions.empty(); }
  // Whether row `r` of `table` passes; every condition's column must exist.
  bool matches(const CsvTable& table, const std::vector<std::string>& row) const;
};

// Reads a "where" object; `columns` are the names it may use.
RowFilter parse_row_filter(const JsonValue& where, const std::vector<std::string>& columns);

// One line naming the allowed columns, for errors.
std::string join_names(const std::vector<std::string>& names);

}  // namespace allocsim
