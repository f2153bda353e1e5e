// Result file columns from the declared tables, with a scenario's sweep variables.
#include "allocsim/scenario/result_files.h"

#include <algorithm>

#include "allocsim/stats/result_tables.h"

namespace allocsim {
namespace {

template <class Row>
void add_keys(ResultTable<Row> table, std::vector<std::string>& names) {
  for (const ResultColumn<Row>& column : table) {
    if (column.key && std::find(names.begin(), names.end(), column.name) == names.end()) {
      names.emplace_back(column.name);
    }
  }
}

}  // namespace

ResultColumns result_columns(const std::vector<std::string>& sweep_names) {
  return {{ResultSource::metrics, file_columns(sweep_names, metric_table())},
          {ResultSource::intervals, file_columns(sweep_names, interval_table())},
          {ResultSource::profiles, file_columns(sweep_names, profile_table())}};
}

std::vector<std::string> selectable_columns(const std::vector<std::string>& sweep_names) {
  std::vector<std::string> names;
  add_keys(metric_table(), names);
  add_keys(interval_table(), names);
  names.insert(names.end(), sweep_names.begin(), sweep_names.end());
  return names;
}

}  // namespace allocsim
